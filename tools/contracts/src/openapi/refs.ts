import { isNode, type DocumentNode, type OpenApiDocument } from './document.js';

/** A `$ref` that leads nowhere, out of the document, or round in a circle. */
export class OpenApiReferenceError extends Error {
  override readonly name = 'OpenApiReferenceError';
}

/**
 * One segment of a JSON pointer, escaped (RFC 6901: `~` as `~0`, `/` as `~1`) and with `%` as `%25`: pointers are
 * read as URI fragments (percent-decoded), so a name holding `%` must survive the decoding.
 */
export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1').replace(/%/g, '%25');

/** A JSON pointer fragment (`#/paths/~1a~1{id}/get`) from its unescaped segments. */
export const pointerTo = (...segments: string[]): string => `#/${segments.map(escapePointer).join('/')}`;

function unescapeSegment(raw: string): string {
  let segment = raw;
  // A pointer written as a URI fragment may percent-encode characters (`%7B` for `{`); a bare `%` is left alone.
  try {
    segment = decodeURIComponent(raw);
  } catch {
    /* not percent-encoded */
  }
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The unescaped segments of a local JSON pointer (`#/paths/~1a%7Bb%7D` -> `paths`, `/a{b}`). */
export function pointerSegments(pointer: string): string[] {
  if (!pointer.startsWith('#')) throw new OpenApiReferenceError(`only local references are read (bundle the contract first): ${pointer}`);
  return pointer.slice(1).split('/').slice(1).map(unescapeSegment);
}

/** A local JSON pointer as `pointerTo` writes it, however it was escaped (`%7B` becomes `{`). */
export const canonicalPointer = (pointer: string): string => (pointer === '#' ? pointer : pointerTo(...pointerSegments(pointer)));

/** The value at a local JSON pointer (`#/components/schemas/Error`, `#` for the document), or undefined. */
export function nodeAt(document: OpenApiDocument, pointer: string): unknown {
  return pointerSegments(pointer).reduce<unknown>((at, key) => (isNode(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined), document);
}

export interface Resolved {
  /** The object the chain of `$ref`s leads to, with the keywords written beside each `$ref` laid over it. */
  readonly node: DocumentNode;
  /** The last `$ref` followed (the pointer of `node` in the document); undefined when the value held none. */
  readonly ref?: string;
  /** The last segment of `ref`: the component's name (`Transaction` for `#/components/schemas/Transaction`). */
  readonly name?: string;
}

/**
 * Follows a chain of local `$ref`s. OpenAPI 3.1 allows keywords beside a `$ref` (a description, say): they override
 * the target's, the nearest one winning; without them the target itself is returned, not a copy. Undefined when the
 * value is not an object; throws when a reference is external, leads to no object, or comes back to itself.
 */
export function resolveRef(document: OpenApiDocument, value: unknown): Resolved | undefined {
  if (!isNode(value)) return undefined;
  let node = value;
  let ref: string | undefined;
  const seen = new Set<string>();
  const siblings: DocumentNode[] = [];
  while (typeof node.$ref === 'string') {
    ref = node.$ref;
    if (seen.has(ref)) throw new OpenApiReferenceError(`reference cycle through ${ref}`);
    seen.add(ref);
    const { $ref: _followed, ...rest } = node;
    if (Object.keys(rest).length > 0) siblings.unshift(rest);
    const target = nodeAt(document, ref);
    if (!isNode(target)) throw new OpenApiReferenceError(`unresolvable reference ${ref}`);
    node = target;
  }
  if (siblings.length > 0) node = Object.assign({}, node, ...siblings) as DocumentNode;
  return ref === undefined ? { node } : { node, ref, name: unescapeSegment(ref.split('/').pop()!) };
}

/** The object a value stands for after its `$ref`s (`resolveRef`'s node); undefined when the value is not an object. */
export function deref(document: OpenApiDocument, value: unknown): DocumentNode | undefined {
  return resolveRef(document, value)?.node;
}

/**
 * The pointer a chain of `$ref`s starting at `pointer` ends on, for readers that compile what they find there (a
 * schema validator) and so need its place in the document, not a copy.
 */
export function resolvePointer(document: OpenApiDocument, pointer: string): string {
  const seen = new Set<string>();
  let current = pointer;
  for (let node = nodeAt(document, current); isNode(node) && typeof node.$ref === 'string'; node = nodeAt(document, current)) {
    if (seen.has(node.$ref)) throw new OpenApiReferenceError(`reference cycle through ${node.$ref}`);
    seen.add(node.$ref);
    current = node.$ref;
  }
  return current;
}

/**
 * A copy of a value with every `$ref` inside it replaced by what it leads to. A reference met again inside its own
 * expansion (a recursive schema) stays a `$ref`, so the copy is finite.
 */
export function inlineRefs(document: OpenApiDocument, value: unknown, expanding: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(document, item, expanding));
  if (!isNode(value)) return value;
  let node = value;
  let inside = expanding;
  if (typeof value.$ref === 'string') {
    if (expanding.has(value.$ref)) return value;
    const resolved = resolveRef(document, value)!;
    node = resolved.node;
    inside = new Set([...expanding, value.$ref, resolved.ref!]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, inlineRefs(document, child, inside)]));
}
