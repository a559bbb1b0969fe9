/** A JSON Schema / OpenAPI object as the bundle holds it: plain JSON, possibly a `$ref`. */
export type Node = Record<string, unknown>;

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
