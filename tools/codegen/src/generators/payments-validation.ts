import { deref, openApiModel, type OpenApiDocument } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';
import { buildOperationTables } from './payments-operations.js';
import { toLiteral, type Node } from './openapi-walk.js';

/**
 * Compact validation data for requests: every schema a request body or parameter uses, flattened into one array of
 * small nodes that point at each other by index (so shared and recursive schemas cost one entry), plus, per
 * operation, the index of its body and parameter schemas. A tiny interpreter in the package walks it; this replaces
 * a general JSON Schema validator, which would not fit the bundle budget. The nodes' keys are short (`simpleKeywords`
 * below): `makeRule` in packages/payments/src/validation/schema-check.ts decodes each node, once, into a rule under
 * JSON Schema's own names, and is the only hand-written code that reads them.
 *
 * Only the subset of JSON Schema the spec uses is understood. A keyword outside it stops generation rather than being
 * skipped silently, so a spec change can never weaken the checks unnoticed.
 */

/** Keywords that describe but never constrain a value (`format` is an annotation in JSON Schema 2020-12). */
const annotations = new Set([
  'description', 'title', 'example', 'examples', 'default', 'format', 'deprecated', 'readOnly', 'writeOnly',
  'externalDocs', 'xml', 'contentEncoding', 'contentMediaType', '$comment', '$schema', 'discriminator',
]);

/**
 * JSON Schema keyword -> short key in the generated data (decoded back by the package's `makeRule`). Short keys save
 * ~50 B gzipped in a browser bundle with the publishable checks (4,492 B against 4,544 B with the keywords).
 */
const simpleKeywords: Record<string, string> = {
  type: 't', required: 'r', enum: 'e', const: 'c', maxLength: 'xl', minLength: 'nl', pattern: 'p', maximum: 'x',
  minimum: 'n', exclusiveMaximum: 'xx', exclusiveMinimum: 'xn', multipleOf: 'm', maxItems: 'xi', minItems: 'ni',
};
const structuralKeywords = new Set(['properties', 'items', 'additionalProperties', 'oneOf', 'anyOf', 'allOf', 'if', 'then', 'else']);
/**
 * The most decimal places a number may have (money: two), where `multipleOf: 0.01` cannot say it: binary floating
 * point makes validators refuse amounts such as 19.99 with it. Short key `dp`.
 */
export const decimalPlacesExtension = 'x-paykit-decimal-places';

type Compact = Record<string, unknown>;

/** The value of `x-paykit-decimal-places`, which only makes sense as a small whole number on a number schema. */
function decimalPlaces(node: Node, value: unknown, where: string): number {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes('number')) throw new Error(`${where}: ${decimalPlacesExtension} applies to number schemas only`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10) {
    throw new Error(`${where}: ${decimalPlacesExtension} must be a whole number from 0 to 10, got ${JSON.stringify(value)}`);
  }
  return value;
}

class SchemaTable {
  readonly nodes: Compact[] = [];
  private readonly byRef = new Map<string, number>();
  private readonly byShape = new Map<string, number>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly where: string,
  ) {}

  /** Index of the schema in the table, adding it (and everything it refers to) when new. */
  add(schema: unknown): number {
    const node = schema as Node;
    if (typeof node?.$ref === 'string') {
      const known = this.byRef.get(node.$ref);
      if (known !== undefined) return known;
      const index = this.nodes.push({}) - 1; // reserved first, so that a recursive schema can point at itself
      this.byRef.set(node.$ref, index);
      this.nodes[index] = this.compact(deref(this.document, node)!, node.$ref);
      return index;
    }
    const compact = this.compact(node, this.where);
    const shape = JSON.stringify(compact);
    const known = this.byShape.get(shape);
    if (known !== undefined) return known;
    const index = this.nodes.push(compact) - 1;
    this.byShape.set(shape, index);
    return index;
  }

  private compact(node: Node, where: string): Compact {
    if (typeof node === 'boolean') return node ? {} : { f: 1 };
    const out: Compact = {};
    // An open enum lists the values known today; the service may add others without a new version.
    const openEnum = node['x-paykit-open-enum'] === true;
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === decimalPlacesExtension) {
        out.dp = decimalPlaces(node, value, where);
        continue;
      }
      if (annotations.has(keyword) || keyword.startsWith('x-') || (openEnum && keyword === 'enum')) continue;
      const short = simpleKeywords[keyword];
      if (keyword === 'pattern') {
        // The interpreter compiles patterns in Unicode mode, which is stricter: fail here, not in a merchant's call.
        try {
          new RegExp(String(value), 'u');
        } catch (error) {
          throw new Error(`${where}: the pattern ${String(value)} is not a valid Unicode regular expression (${String(error)})`);
        }
      }
      if (short) out[short] = value;
      else if (!structuralKeywords.has(keyword)) {
        throw new Error(`${where}: the request validator does not understand the schema keyword "${keyword}"`);
      }
    }
    if (node.properties) {
      const properties: Record<string, number> = {};
      const readOnly: string[] = [];
      for (const [name, property] of Object.entries(node.properties as Record<string, unknown>)) {
        // A readOnly property belongs to answers only: a request neither needs nor should send it.
        if (deref(this.document, property)?.readOnly === true) readOnly.push(name);
        else properties[name] = this.add(property);
      }
      out.o = properties;
      if (Array.isArray(out.r)) out.r = (out.r as string[]).filter((name) => !readOnly.includes(name));
    }
    if (node.items !== undefined) out.i = this.add(node.items);
    // `additionalProperties: false` is deliberately not enforced: the service adds optional request parameters
    // without a new version (reference, Versioning), and a caller must be able to send one this client does not
    // know yet. The generated types still flag misspelt fields at compile time.
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      out.a = this.add(node.additionalProperties);
    }
    for (const [keyword, short] of [['if', 'if'], ['then', 'th'], ['else', 'el']] as const) {
      if (node[keyword] !== undefined) out[short] = this.add(node[keyword]);
    }
    for (const [keyword, short] of [['oneOf', 'one'], ['anyOf', 'any'], ['allOf', 'all']] as const) {
      if (Array.isArray(node[keyword])) out[short] = (node[keyword] as unknown[]).map((s) => this.add(s));
    }
    const discriminator = node.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (discriminator && Array.isArray(node.oneOf)) out.d = this.discriminator(node.oneOf as Node[], discriminator);
    return out;
  }

  /** The discriminator as `{ p: property, m: { value: branch index } }`, explicit mapping or implied by the branches. */
  private discriminator(branches: Node[], discriminator: { propertyName: string; mapping?: Record<string, string> }) {
    const mapping: Record<string, number> = {};
    if (discriminator.mapping) {
      for (const [value, ref] of Object.entries(discriminator.mapping)) mapping[value] = this.add({ $ref: ref });
    } else {
      for (const branch of branches) {
        const resolved = deref(this.document, branch);
        const property = deref(this.document, (resolved?.properties as Node | undefined)?.[discriminator.propertyName]) ?? {};
        const values = 'const' in property ? [property.const] : ((property.enum as unknown[] | undefined) ?? []);
        const implied = values.length ? values : [String(branch.$ref ?? '').split('/').pop()];
        for (const value of implied) mapping[String(value)] = this.add(branch);
      }
    }
    return { p: discriminator.propertyName, m: mapping };
  }
}

/**
 * The checks of each operation that has something to check (an operation without is left out: nothing to do). Path
 * parameters are all required (OpenAPI says so), so no list of them is written; the Idempotency-Key header is left to
 * the client, which checks every key against the same schema (`idempotencyKeyRule`) whether a check is on or not.
 */
export function buildValidationData(document: OpenApiDocument, operationIds: Set<string>) {
  const table = new SchemaTable(document, 'request schemas');
  const operations: Record<string, Record<string, unknown>> = {};
  for (const entry of openApiModel(document).operations) {
    if (!operationIds.has(entry.operationId)) continue;
    const checks: Record<string, unknown> = {};
    for (const location of ['path', 'query', 'header'] as const) {
      const params = entry.parameters.filter((p) => p.in === location && p.schema && !(location === 'header' && p.name === entry.idempotencyHeader));
      if (!params.length) continue;
      checks[location[0]!] = Object.fromEntries(params.map((p) => [String(p.name), table.add(p.schema)]));
      const required = params.filter((p) => p.required === true).map((p) => String(p.name));
      if (location === 'path') {
        if (required.length !== params.length) throw new Error(`${entry.operationId}: a path parameter that is not required`);
      } else if (required.length) checks[`${location[0]!}r`] = required;
    }
    const body = deref(document, entry.operation.requestBody);
    const json = (body?.content as Record<string, Node> | undefined)?.['application/json'];
    if (json?.schema) checks.b = table.add(json.schema);
    if (Object.keys(checks).length) operations[entry.operationId] = checks;
  }
  return { schemas: table.nodes, operations };
}

export const paymentsValidationGenerator: Generator = ({ document, specPath }) => {
  const { tables } = buildOperationTables(document);
  const lines = [
    generatedHeader(specPath),
    '/**',
    ' * A schema node. Short keys keep the bundle small: t type, r required, e enum, c const, xl/nl max/min length,',
    ' * p pattern, x/n maximum/minimum, xx/xn exclusive maximum/minimum, m multipleOf, dp most decimal places',
    ` * (${decimalPlacesExtension}), xi/ni max/min items, o properties (name -> node index), i items, a`,
    ' * additionalProperties (a node index), one/any/all the combinators, d discriminator (p property, m value -> node',
    ' * index), if/th/el the conditional, f the `false` schema (nothing allowed). `makeRule` in',
    " * validation/schema-check.ts decodes each node into a rule under JSON Schema's names: no other code reads them.",
    ' */',
    'export interface SchemaNode {',
    '  readonly t?: string | readonly string[];',
    '  readonly r?: readonly string[];',
    '  readonly e?: readonly unknown[];',
    '  readonly c?: unknown;',
    '  readonly xl?: number;',
    '  readonly nl?: number;',
    '  readonly p?: string;',
    '  readonly x?: number;',
    '  readonly n?: number;',
    '  readonly xx?: number;',
    '  readonly xn?: number;',
    '  readonly m?: number;',
    '  readonly dp?: number;',
    '  readonly xi?: number;',
    '  readonly ni?: number;',
    '  readonly o?: Readonly<Record<string, number>>;',
    '  readonly i?: number;',
    '  readonly a?: number;',
    '  readonly one?: readonly number[];',
    '  readonly any?: readonly number[];',
    '  readonly all?: readonly number[];',
    '  readonly d?: { readonly p: string; readonly m: Readonly<Record<string, number>> };',
    '  readonly if?: number;',
    '  readonly th?: number;',
    '  readonly el?: number;',
    '  readonly f?: 1;',
    '}',
    '',
    '/**',
    ' * What to check on one operation: b body, p/q/h path/query/header parameters (every path parameter is required),',
    ' * qr/hr the required query and header parameters. An operation with nothing to check has no entry.',
    ' */',
    'export interface OperationChecks {',
    '  readonly b?: number;',
    '  readonly p?: Readonly<Record<string, number>>;',
    '  readonly q?: Readonly<Record<string, number>>;',
    '  readonly h?: Readonly<Record<string, number>>;',
    '  readonly qr?: readonly string[];',
    '  readonly hr?: readonly string[];',
    '}',
    '',
    'export interface ValidationData {',
    '  readonly schemas: readonly SchemaNode[];',
    '  readonly operations: Readonly<Record<string, OperationChecks>>;',
    '}',
    '',
  ];
  for (const [scheme, table] of Object.entries(tables)) {
    const data = buildValidationData(document, new Set(Object.keys(table)));
    // One line per schema node keeps the file diffable without the size of a fully indented tree.
    const schemas = data.schemas.map((s) => `    ${JSON.stringify(s)},`).join('\n');
    lines.push(`/** Request checks of the operations that require the \`${scheme}\` security scheme. */`);
    lines.push(`export const ${scheme}Validation: ValidationData = {`);
    lines.push(`  schemas: [\n${schemas}\n  ],`);
    lines.push(`  operations: ${toLiteral(data.operations, '  ')},`);
    lines.push('};', '');
  }
  return [{ path: 'src/generated/validation.ts', content: lines.join('\n') }];
};
