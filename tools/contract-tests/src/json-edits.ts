/** Where a value sits in a JSON document: object keys and array indexes from the root. */
export type JsonPath = ReadonlyArray<string | number>;

/**
 * One change a mutation made, enough to take it back: a property added, an array element inserted, or a value
 * replaced (with the value it had).
 */
export type JsonEdit =
  | { op: 'add'; path: JsonPath }
  | { op: 'insert'; path: JsonPath }
  | { op: 'replace'; path: JsonPath; original: unknown };

type Container = Record<string, unknown> | unknown[];

function parentOf(root: unknown, path: JsonPath): { parent: Container; key: string | number } {
  if (path.length === 0) throw new Error('An edit cannot address the root');
  let at = root;
  for (const key of path.slice(0, -1)) at = (at as Record<string | number, unknown>)[key];
  if (typeof at !== 'object' || at === null) throw new Error(`No container at ${JSON.stringify(path)}`);
  return { parent: at as Container, key: path[path.length - 1]! };
}

/**
 * Takes the edits back, last first, on a copy of a document: what the document was before the mutation. Applied to
 * a client's result, it gives what the client should have returned without the mutation.
 */
export function undoEdits(document: unknown, edits: readonly JsonEdit[]): unknown {
  const copy = structuredClone(document);
  for (const edit of [...edits].reverse()) {
    const { parent, key } = parentOf(copy, edit.path);
    if (edit.op === 'insert') {
      if (!Array.isArray(parent)) throw new Error(`Insert edit on a non-array at ${JSON.stringify(edit.path)}`);
      parent.splice(Number(key), 1);
    } else if (edit.op === 'add') {
      delete (parent as Record<string, unknown>)[key as string];
    } else {
      (parent as Record<string | number, unknown>)[key] = edit.original;
    }
  }
  return copy;
}

/** Calls `visit` for every object and array of a document, parents before children, with its path. */
export function walkContainers(root: unknown, visit: (node: Container, path: JsonPath) => void, path: JsonPath = []): void {
  if (typeof root !== 'object' || root === null) return;
  // Children are read before the visit: what a visit adds is not walked (an added object would grow forever).
  const entries = Array.isArray(root) ? root.map((v, i) => [i, v] as const) : Object.entries(root);
  visit(root as Container, path);
  for (const [key, value] of entries) {
    // An insertion before this child moved it: find it again by identity.
    const index = Array.isArray(root) ? root.indexOf(value) : -1;
    walkContainers(value, visit, [...path, Array.isArray(root) ? index : key]);
  }
}
