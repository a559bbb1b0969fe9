import { publishableKeyOperations, secretKeyOperations, type OperationSpec } from '@paykit/payments';

export type KeyType = 'secret' | 'publishable';

/** An operation of the payments contract a request was matched to. */
export interface MatchedOperation {
  id: string;
  spec: OperationSpec;
  /** The key type its security requirement names: each resource takes exactly one. */
  keyType: KeyType;
  pathParams: Record<string, string>;
}

interface Route {
  id: string;
  spec: OperationSpec;
  keyType: KeyType;
  pattern: RegExp;
  names: string[];
  literals: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function route(id: string, spec: OperationSpec, keyType: KeyType): Route {
  const names: string[] = [];
  const source = spec.path
    .split('/')
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name === undefined) return escape(segment);
      names.push(name);
      return '([^/]+)';
    })
    .join('/');
  const literals = spec.path.split('/').filter((segment) => segment && !segment.startsWith('{')).length;
  return { id, spec, keyType, pattern: new RegExp(`^${source}/?$`), names, literals };
}

// The generated operation tables of @paykit/payments: which operations exist, their key type, whether they take
// the idempotency header and what they answer. More literal paths first (`/transactions/suspended` before `{id}`).
const routes: Route[] = [
  ...Object.entries(secretKeyOperations).map(([id, spec]) => route(id, spec, 'secret')),
  ...Object.entries(publishableKeyOperations).map(([id, spec]) => route(id, spec, 'publishable')),
].sort((a, b) => b.literals - a.literals);

/** The operation a request is for, from its method and its path under the base address (`/transactions/123`). */
export function matchOperation(method: string, path: string): MatchedOperation | undefined {
  const upper = method.toUpperCase();
  for (const candidate of routes) {
    if (candidate.spec.method !== upper) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const pathParams: Record<string, string> = {};
    candidate.names.forEach((name, index) => {
      const raw = match[index + 1] ?? '';
      try {
        pathParams[name] = decodeURIComponent(raw);
      } catch {
        pathParams[name] = raw;
      }
    });
    return { id: candidate.id, spec: candidate.spec, keyType: candidate.keyType, pathParams };
  }
  return undefined;
}
