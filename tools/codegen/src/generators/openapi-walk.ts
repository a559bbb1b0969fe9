import type { OpenApiDocument } from '@paykit/contracts';

/** A JSON Schema / OpenAPI object as the bundle holds it: plain JSON, possibly a `$ref`. */
export type Node = Record<string, unknown>;

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  operationId: string;
  method: (typeof httpMethods)[number];
  path: string;
  operation: Node;
  /** Path-level parameters merged under the operation's own (the operation wins on name and location). */
  parameters: Node[];
}

/** Follows local `$ref`s (`#/components/...`) until a node without one is reached. */
export function resolveRef(document: OpenApiDocument, node: unknown): Node {
  let current = node as Node;
  const seen = new Set<string>();
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local references are supported after bundling, got ${ref}`);
    if (seen.has(ref)) throw new Error(`Reference cycle through ${ref}`);
    seen.add(ref);
    let target: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = (target as Record<string, unknown> | undefined)?.[segment];
    }
    if (target === undefined) throw new Error(`Unresolved reference ${ref}`);
    current = target as Node;
  }
  return current;
}

/** Every operation of the document in path order, with its merged parameters resolved. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = resolveRef(document, rawItem);
    const shared = ((item.parameters as unknown[]) ?? []).map((p) => resolveRef(document, p));
    for (const method of httpMethods) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      if (typeof operation.operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const own = ((operation.parameters as unknown[]) ?? []).map((p) => resolveRef(document, p));
      const key = (p: Node) => `${String(p.in)}:${String(p.name).toLowerCase()}`;
      const ownKeys = new Set(own.map(key));
      entries.push({
        operationId: operation.operationId,
        method,
        path,
        operation,
        parameters: [...shared.filter((p) => !ownKeys.has(key(p))), ...own],
      });
    }
  }
  return entries;
}

/** A name the generated module declares, written into a literal as it is (not as a string). */
export class Identifier {
  constructor(readonly name: string) {}
}

/** Serialises a value as a TypeScript literal: JSON with unquoted identifier keys, which reads better and is smaller. */
export function toLiteral(value: unknown, indent = ''): string {
  if (value instanceof Identifier) return value.name;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => toLiteral(v)).join(', ')}]`;
    const inner = indent + '  ';
    return `[\n${value.map((v) => inner + toLiteral(v, inner)).join(',\n')},\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${toLiteral(v, inner)}`).join(',\n')},\n${indent}}`;
  }
  return JSON.stringify(value);
}
