import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The sandbox learns its routes, parameters, bodies and answers from the payments contract this package bundles at
 * build time (`dist/specs/payments.json`, the file Prism serves): JSON, so it loads in milliseconds, and its paths
 * already carry the base path of the spec's server (`/rest/v1`). Nothing here names a path or a field.
 */

type Node = Record<string, unknown>;
export type OpenApiDocument = Node & { paths: Record<string, Node>; components: Record<string, Record<string, Node>> };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export type KeyType = 'secretKey' | 'publishableKey';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer to the parameter's schema. */
  schema: string;
  /** The schema's `type` after following references, to read query text as a number or a boolean. */
  type: unknown;
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
  document: OpenApiDocument;
  basePath: string;
  paths: PathSpec[];
  operations: Map<string, OperationSpec>;
  /** The named examples of the contract (the default payment methods come from one). */
  examples: Record<string, Node>;
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

export function nodeAt(document: Node, pointer: string): unknown {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Node)[key] : undefined), document);
}

/** Follows `$ref`s from a pointer to the pointer of the node they lead to. */
export function resolvePointer(document: Node, pointer: string): string {
  let current = pointer;
  for (let hops = 0; hops < 32; hops++) {
    const node = nodeAt(document, current);
    if (!isNode(node) || typeof node.$ref !== 'string') return current;
    current = node.$ref;
  }
  throw new Error(`reference cycle at ${pointer}`);
}

const methods = ['get', 'put', 'post', 'patch', 'delete'] as const;

function contentPointers(document: Node, holder: string): Map<string, string | undefined> {
  const content = nodeAt(document, `${holder}/content`);
  const media = new Map<string, string | undefined>();
  if (!isNode(content)) return media;
  for (const [type, entry] of Object.entries(content)) {
    media.set(type.toLowerCase(), isNode(entry) && entry.schema !== undefined ? `${holder}/content/${escapePointer(type)}/schema` : undefined);
  }
  return media;
}

function readOperation(document: OpenApiDocument, path: string, template: string, method: string, idempotencyName: string | undefined): OperationSpec {
  const pathPointer = `#/paths/${escapePointer(path)}`;
  const pointer = `${pathPointer}/${method}`;
  const operation = nodeAt(document, pointer) as Node;
  const parameters = new Map<string, ParameterSpec>();
  for (const holder of [pathPointer, pointer]) {
    const list = nodeAt(document, `${holder}/parameters`);
    if (!Array.isArray(list)) continue;
    list.forEach((_, index) => {
      const at = resolvePointer(document, `${holder}/parameters/${index}`);
      const parameter = nodeAt(document, at) as Node;
      const schema = `${at}/schema`;
      const type = (nodeAt(document, resolvePointer(document, schema)) as Node | undefined)?.type;
      const spec: ParameterSpec = { name: String(parameter.name), in: parameter.in as ParameterSpec['in'], required: parameter.required === true, schema, type };
      parameters.set(`${spec.in}:${spec.name.toLowerCase()}`, spec);
    });
  }
  const security = (operation.security ?? document.security) as Node[] | undefined;
  const keyType = security?.flatMap((requirement) => Object.keys(requirement))[0] as KeyType | undefined;
  const bodyPointer = operation.requestBody ? resolvePointer(document, `${pointer}/requestBody`) : undefined;
  const responses = new Map<string, { media: Map<string, string | undefined>; headers: string[] }>();
  for (const status of Object.keys((operation.responses as Node | undefined) ?? {})) {
    const at = resolvePointer(document, `${pointer}/responses/${status}`);
    const headers = nodeAt(document, `${at}/headers`);
    responses.set(status, { media: contentPointers(document, at), headers: isNode(headers) ? Object.keys(headers) : [] });
  }
  const successMediaTypes = [...responses].filter(([status]) => /^2\d\d$/.test(status)).flatMap(([, r]) => [...r.media.keys()]);
  const idempotent = idempotencyName !== undefined && parameters.has(`header:${idempotencyName.toLowerCase()}`);
  return {
    operationId: String(operation.operationId),
    method: method.toUpperCase(),
    template,
    keyType,
    parameters: [...parameters.values()],
    requestBody: bodyPointer
      ? { required: (nodeAt(document, bodyPointer) as Node).required === true, media: contentPointers(document, bodyPointer) }
      : undefined,
    responses,
    successMediaTypes: [...new Set(successMediaTypes)],
    idempotencyHeader: idempotent ? idempotencyName : undefined,
  };
}

/** The name of the header parameter the contract calls the idempotency key (a component parameter of that name). */
function idempotencyHeaderName(document: OpenApiDocument): string | undefined {
  const parameter = document.components.parameters?.IdempotencyKey;
  return typeof parameter?.name === 'string' ? parameter.name : undefined;
}

export function readContract(document: OpenApiDocument): SandboxContract {
  const basePath = typeof document['x-paykit-mock-base-path'] === 'string' ? document['x-paykit-mock-base-path'] : '';
  const idempotencyName = idempotencyHeaderName(document);
  const paths: PathSpec[] = [];
  const operations = new Map<string, OperationSpec>();
  for (const [path, item] of Object.entries(document.paths)) {
    const template = path.slice(basePath.length) || '/';
    const names: string[] = [];
    const source = template
      .split('/')
      .map((segment) => segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => (names.push(name), '([^/]+)')))
      .join('/');
    const spec: PathSpec = {
      template,
      pattern: new RegExp(`^${source}$`),
      names,
      literals: template.split('/').filter((segment) => segment && !segment.includes('{')).length,
      operations: new Map(),
    };
    for (const method of methods) {
      if (!isNode(item[method])) continue;
      const operation = readOperation(document, path, template, method, idempotencyName);
      spec.operations.set(operation.method, operation);
      operations.set(operation.operationId, operation);
    }
    paths.push(spec);
  }
  paths.sort((a, b) => b.literals - a.literals || a.names.length - b.names.length);
  return { document, basePath, paths, operations, examples: document.components.examples ?? {} };
}

let loaded: SandboxContract | undefined;

/** The bundled payments contract, read once per process. */
export function loadPaymentsContract(): SandboxContract {
  if (loaded) return loaded;
  // `../../dist/specs` resolves from both src/contract/ (tests) and dist/contract/ (the published build).
  const path = fileURLToPath(new URL('../../dist/specs/payments.json', import.meta.url));
  if (!existsSync(path)) throw new Error(`The payments contract is missing at ${path}: build @paykit/payments-sandbox first (pnpm build).`);
  loaded = readContract(JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument);
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
