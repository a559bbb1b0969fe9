import { isNode, type DocumentNode as Node, type OpenApiDocument } from '@paykit/contracts';

export interface OpenEnumProperty {
  /** Component schema holding the property, e.g. `CreditCard`. */
  schema: string;
  property: string;
  /** The values known today, from `x-paykit-open-enum`. */
  knownValues: string[];
  /** The property's closed `enum`, if it has one (it must not). */
  closedEnum: unknown[] | undefined;
}

/** Every property of the component schemas (at any depth) that the spec marks as an open enumeration. */
export function openEnumProperties(document: OpenApiDocument): OpenEnumProperty[] {
  const found: OpenEnumProperty[] = [];
  const visit = (schemaName: string, schema: unknown): void => {
    if (!isNode(schema)) return;
    if (isNode(schema.properties)) {
      for (const [property, raw] of Object.entries(schema.properties)) {
        if (!isNode(raw)) continue;
        const known = raw['x-paykit-open-enum'];
        if (Array.isArray(known)) {
          found.push({ schema: schemaName, property, knownValues: known.map(String), closedEnum: Array.isArray(raw.enum) ? raw.enum : undefined });
        }
        visit(schemaName, raw);
      }
    }
    for (const key of ['items', 'additionalProperties']) visit(schemaName, schema[key]);
    for (const key of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(schema[key])) for (const part of schema[key] as unknown[]) visit(schemaName, part);
  };
  const schemas = (document.components as Node | undefined)?.schemas;
  if (isNode(schemas)) for (const [name, schema] of Object.entries(schemas)) visit(name, schema);
  return found;
}

/** The open union openapi-typescript writes for a property: `name?: "A" | "B" | (string & {});`. */
export function openUnionPattern(property: string, knownValues: readonly string[]): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const union = [...knownValues.map((v) => `"${escape(v)}"`), '\\(string & \\{\\}\\)'].join(' \\| ');
  return new RegExp(`\\b${escape(property)}\\??: ${union};`);
}
