import type { OperationEntry } from './operation-table.js';

/** An operation a request was matched to, with its path parameters (percent-decoded). */
export interface MatchedOperation {
  readonly operation: OperationEntry;
  readonly pathParams: Readonly<Record<string, string>>;
}

interface Route {
  readonly operation: OperationEntry;
  /** Each segment of the template: its literal text, or null for a `{parameter}`. */
  readonly segments: readonly (string | null)[];
  readonly names: readonly string[];
}

/** `/a/b/` and `/a/b` are one path: a trailing slash is not a segment. */
const segmentsOf = (path: string): string[] => (path.endsWith('/') ? path.replace(/\/+$/, '') : path).split('/').slice(1);

/** Percent-decoded; a segment without `%` is its own decoding (the common case: no call, no try). */
function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Finds the operation of a method and a path from a contract's operation table. Routes are grouped by method and
 * number of segments, and tried with more literal segments first, so `/transactions/suspended` wins over
 * `/transactions/{receiptNumber}` whatever order the spec lists them in.
 */
export class OperationMatcher {
  private readonly routes = new Map<string, Route[]>();

  constructor(operations: readonly OperationEntry[]) {
    for (const operation of operations) {
      const names: string[] = [];
      const segments = segmentsOf(operation.path).map((segment) => {
        const name = /^\{(.+)\}$/.exec(segment)?.[1];
        if (name === undefined) return segment;
        names.push(name);
        return null;
      });
      const key = `${operation.method} ${segments.length}`;
      const list = this.routes.get(key) ?? [];
      list.push({ operation, segments, names });
      this.routes.set(key, list);
    }
    const literals = (route: Route) => route.segments.filter((segment) => segment !== null).length;
    for (const list of this.routes.values()) list.sort((a, b) => literals(b) - literals(a));
  }

  /** The operation of `method` on `path` (under the contract's base path, as sent: percent-encoded), if any. */
  match(method: string, path: string): MatchedOperation | undefined {
    const segments = segmentsOf(path);
    const candidates = this.routes.get(`${method.toUpperCase()} ${segments.length}`);
    if (!candidates) return undefined;
    for (const route of candidates) {
      let matches = true;
      for (let index = 0; index < segments.length; index++) {
        const literal = route.segments[index];
        if (literal !== null && literal !== segments[index] && literal !== decode(segments[index]!)) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      const pathParams: Record<string, string> = {};
      let name = 0;
      for (let index = 0; index < route.segments.length; index++) {
        if (route.segments[index] === null) pathParams[route.names[name++]!] = decode(segments[index]!);
      }
      return { operation: route.operation, pathParams };
    }
    return undefined;
  }
}
