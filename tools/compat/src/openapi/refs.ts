export type OpenApiDocument = Record<string, unknown>;
export type Node = Record<string, unknown>;

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Resolved {
  node: Node;
  /** Last component name on the `$ref` chain (`Transaction` for `#/components/schemas/Transaction`). */
  name?: string;
  /** The full `$ref` that was followed, used to recognise a schema already being compared (recursion). */
  ref?: string;
}

const MAX_REF_CHAIN = 32;

function pointer(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are compared (bundle first): ${ref}`);
  let at: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    at = isNode(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/**
 * Follows a chain of `$ref`s inside a bundled document. Keywords next to a `$ref` (allowed in OpenAPI 3.1, e.g. a
 * description) override the target's.
 */
export function resolve(document: OpenApiDocument, value: unknown): Resolved | undefined {
  if (!isNode(value)) return undefined;
  let node: Node = value;
  let name: string | undefined;
  let ref: string | undefined;
  const siblings: Node[] = [];
  for (let hops = 0; typeof node.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_CHAIN) throw new Error(`$ref chain too long or circular at ${node.$ref}`);
    ref = node.$ref as string;
    const { $ref: _ignored, ...rest } = node;
    siblings.unshift(rest);
    name = ref.split('/').pop();
    const target = pointer(document, ref);
    if (!isNode(target)) throw new Error(`unresolvable $ref ${ref}`);
    node = target;
  }
  return { node: Object.assign({}, node, ...siblings) as Node, name, ref };
}

/** A value with every `$ref` inside it replaced by its target: used for examples, which hold no cycles. */
export function inline(document: OpenApiDocument, value: unknown, depth = 0): unknown {
  if (depth > MAX_REF_CHAIN) return value;
  if (Array.isArray(value)) return value.map((v) => inline(document, v, depth + 1));
  if (!isNode(value)) return value;
  const resolved = typeof value.$ref === 'string' ? resolve(document, value)!.node : value;
  return Object.fromEntries(Object.entries(resolved).map(([k, v]) => [k, inline(document, v, depth + 1)]));
}

/** Order-insensitive for object members, order-sensitive for arrays. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isNode(a) && isNode(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return false;
}
