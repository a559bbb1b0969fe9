import { paymentsOperationTable, type OperationContent, type OperationTable } from '../generated/operations.js';

/**
 * The sandbox's routes, parameters, bodies and answers come from the payments contract's operation table, generated
 * from the spec by @paykit/codegen (`src/generated/operations.ts`): the HTTP methods, the idempotency header and the
 * schema pointers are read from the spec in one place (tools/contracts) and reach this file as code. Nothing here
 * names a path or a field, and no spec is read at run time: the schemas behind the pointers are compiled at generation
 * time too (@paykit/contract-validation, checked through `contract-checker.ts`).
 */

export type KeyType = 'secretKey' | 'publishableKey';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer to the parameter's schema (where its `$ref`s end). */
  schema: string | undefined;
  /** The schema's `type`, to read query text as a number or a boolean. */
  type: string | undefined;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  /** The path template under the base path, e.g. `/transactions/{receiptNumber}`. */
  template: string;
  /** The key type its security requirement names. */
  keyType: KeyType | undefined;
  parameters: ParameterSpec[];
  /** Media type -> JSON pointer of the request body schema. */
  requestBody: { required: boolean; media: Map<string, string | undefined> } | undefined;
  /** Status -> media type -> JSON pointer of the response schema; headers by name. */
  responses: Map<string, { media: Map<string, string | undefined>; headers: string[] }>;
  /** Media types of the success answers, in the spec's order. */
  successMediaTypes: string[];
  /** The operation takes the idempotency header. */
  idempotencyHeader: string | undefined;
  /** The JSON body's fields the contract lists only in part (`x-paykit-open-enum`), with the values it publishes. */
  openValues: Readonly<Record<string, readonly string[]>>;
}

export interface PathSpec {
  template: string;
  pattern: RegExp;
  names: string[];
  /** Literal segments count: more literal paths are tried first (`/transactions/suspended` before `{receiptNumber}`). */
  literals: number;
  operations: Map<string, OperationSpec>;
}

export interface SandboxContract {
  basePath: string;
  paths: PathSpec[];
  operations: Map<string, OperationSpec>;
  /** The contract's webhook events, each with the JSON pointer of its body's schema (undefined: none). */
  webhooks: Map<string, string | undefined>;
}

const mediaOf = (content: OperationContent) => new Map(Object.entries(content).map(([type, pointer]) => [type.toLowerCase(), pointer ?? undefined]));

/**
 * The contract as the sandbox routes by it, from a generated operation table. `basePath`: the prefix the request paths
 * carry here (the table's own by default).
 */
export function readContract(table: OperationTable, basePath = table.basePath): SandboxContract {
  const byTemplate = new Map<string, PathSpec>();
  const operations = new Map<string, OperationSpec>();
  for (const [operationId, entry] of Object.entries(table.operations)) {
    const responses = new Map(Object.entries(entry.responses).map(([status, answer]) => [status, { media: mediaOf(answer.content), headers: [...answer.headers] }]));
    const successMediaTypes = [...responses].filter(([status]) => /^2\d\d$/.test(status)).flatMap(([, answer]) => [...answer.media.keys()]);
    const operation: OperationSpec = {
      operationId,
      method: entry.method,
      template: entry.path,
      keyType: entry.security[0] as KeyType | undefined,
      parameters: entry.parameters.map((parameter) => ({ name: parameter.name, in: parameter.in, required: parameter.required, schema: parameter.schema, type: parameter.type })),
      requestBody: entry.requestBody ? { required: entry.requestBody.required, media: mediaOf(entry.requestBody.content) } : undefined,
      responses,
      successMediaTypes: [...new Set(successMediaTypes)],
      idempotencyHeader: entry.idempotencyHeader,
      openValues: entry.openValues ?? {},
    };
    operations.set(operationId, operation);
    let path = byTemplate.get(entry.path);
    if (!path) {
      const names: string[] = [];
      const source = entry.path
        .split('/')
        .map((segment) => segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => (names.push(name), '([^/]+)')))
        .join('/');
      path = {
        template: entry.path,
        pattern: new RegExp(`^${source}$`),
        names,
        literals: entry.path.split('/').filter((segment) => segment && !segment.includes('{')).length,
        operations: new Map(),
      };
      byTemplate.set(entry.path, path);
    }
    path.operations.set(operation.method, operation);
  }
  const paths = [...byTemplate.values()].sort((a, b) => b.literals - a.literals || a.names.length - b.names.length);
  const webhooks = new Map(Object.entries(table.webhooks ?? {}).map(([event, pointer]) => [event, pointer ?? undefined]));
  return { basePath, paths, operations, webhooks };
}

let loaded: SandboxContract | undefined;

/** The payments contract as the sandbox routes by it, from its generated table, made once per process. */
export function loadPaymentsContract(): SandboxContract {
  loaded ??= readContract(paymentsOperationTable);
  return loaded;
}

export interface RouteMatch {
  path: PathSpec;
  params: Record<string, string>;
}

/** The first segment and the number of segments of a path: only paths of the same shape can match it. */
const shapeOf = (segments: string[]) => `${segments.length}/${segments[1] ?? ''}`;

/** The contract's paths by shape, built once: a request is matched against a few candidates rather than all of them. */
const pathsByShape = new WeakMap<SandboxContract, { literal: Map<string, PathSpec[]>; open: Map<number, PathSpec[]> }>();

function candidates(contract: SandboxContract, segments: string[]): PathSpec[] {
  let index = pathsByShape.get(contract);
  if (!index) {
    index = { literal: new Map(), open: new Map() };
    for (const path of contract.paths) {
      const parts = path.template.split('/');
      // A template whose first segment is a parameter could match any first segment: kept by segment count only.
      if (parts[1]?.includes('{')) index.open.set(parts.length, [...(index.open.get(parts.length) ?? []), path]);
      else index.literal.set(shapeOf(parts), [...(index.literal.get(shapeOf(parts)) ?? []), path]);
    }
    pathsByShape.set(contract, index);
  }
  const literal = index.literal.get(shapeOf(segments)) ?? [];
  const open = index.open.get(segments.length);
  // Both lists keep the contract's order (more literal paths first); a parameter-first template is the least literal.
  return open ? [...literal, ...open] : literal;
}

/** The path a request addresses (relative to the base path), or undefined when nothing matches. */
export function matchPath(contract: SandboxContract, pathname: string): RouteMatch | undefined {
  if (!pathname.startsWith(contract.basePath)) return undefined;
  const relative = pathname.slice(contract.basePath.length) || '/';
  for (const path of candidates(contract, relative.split('/'))) {
    const match = path.pattern.exec(relative);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      path.names.forEach((name, index) => (params[name] = decodeURIComponent(match[index + 1]!)));
    } catch {
      return undefined; // a malformed escape names nothing
    }
    return { path, params };
  }
  return undefined;
}
