import { deref, openApiModel, type IdempotencyKey, type OpenApiDocument, type OpenApiOperation } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';
import { Identifier, toLiteral, type Node } from './openapi-walk.js';

/**
 * The operation table of a client: for each operationId, how to call it (method, path, parameters, body, media
 * types), which resource group and method name it gets, whether its answer is a paginated list, and which API key it
 * needs. One table per security scheme, so that an entry point importing one table cannot reach the other's
 * operations, not even at run time.
 */

function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

function pascal(text: string): string {
  return words(text)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join('');
}

/** Resource group of a tag: "Single-use tokens" becomes `singleUseTokens`, "API keys" becomes `apiKeys`. */
export function groupName(tag: string): string {
  const p = pascal(tag);
  return p[0]!.toLowerCase() + p.slice(1);
}

function singular(noun: string): string {
  if (/ies$/.test(noun)) return noun.slice(0, -3) + 'y';
  if (/(ss|s|ch|sh|x)es$/.test(noun)) return noun.slice(0, -2);
  if (/s$/.test(noun)) return noun.slice(0, -1);
  return noun;
}

/**
 * Method name within the group: the operationId without the tag's noun (plural tried first, then singular), first
 * letter lowercased. `listTransactionsForCustomer` in "Transactions" becomes `listForCustomer`; an operationId
 * without the noun stays as it is.
 */
export function methodName(operationId: string, tag: string): string {
  const plural = pascal(tag);
  for (const noun of [plural, singular(plural)]) {
    const at = operationId.indexOf(noun);
    if (at > 0) {
      const rest = operationId.slice(0, at) + operationId.slice(at + noun.length);
      return rest[0]!.toLowerCase() + rest.slice(1);
    }
  }
  // Nothing to remove (`listOpenPreauths` in "Transactions"): the operationId is already a fine method name.
  return operationId;
}

function securityScheme(entry: OpenApiOperation): string {
  const schemes = entry.security;
  if (schemes.length !== 1) {
    throw new Error(`${entry.operationId} must require exactly one security scheme, found [${schemes.join(', ')}]`);
  }
  return schemes[0]!;
}

function isPaginatedList(document: OpenApiDocument, schema: unknown): boolean {
  if (!schema) return false;
  const properties = (deref(document, schema)?.properties ?? {}) as Record<string, unknown>;
  if (!properties.data || !properties.links) return false;
  return deref(document, properties.data)?.type === 'array';
}

/**
 * The properties a JSON object answer always has, by the schema's `required`: its own and its `allOf` parts', and those
 * every `oneOf`/`anyOf` branch requires. Undefined for a schema that is no object: the client could not check it.
 */
function requiredProperties(document: OpenApiDocument, schema: unknown): string[] | undefined {
  const node = deref(document, schema);
  if (!node) return undefined;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  let object = types.includes('object') || node.properties !== undefined;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const part of (node.allOf as unknown[] | undefined) ?? []) {
    const found = requiredProperties(document, part);
    if (!found) continue;
    object = true;
    for (const name of found) required.add(name);
  }
  const branches = ((node.oneOf ?? node.anyOf) as unknown[] | undefined)?.map((branch) => requiredProperties(document, branch));
  if (branches?.length && branches.every((branch) => branch !== undefined)) {
    object = true;
    for (const name of branches[0]!) if (branches.every((branch) => branch!.includes(name))) required.add(name);
  }
  return object ? [...required] : undefined;
}

/**
 * What every JSON success answer of an operation must be: an object with these properties (the intersection over its
 * success statuses). Undefined when no success answer is JSON. A JSON success that is no object stops generation: the
 * client's check of answers (an answer of another operation, replayed under a reused Idempotency-Key, or a page from
 * something in between) would not apply to it.
 */
function answerRequires(document: OpenApiDocument, operationId: string, success: Node[]): string[] | undefined {
  const schemas = success.flatMap((r) => {
    const json = (r.content as Record<string, Node> | undefined)?.['application/json'];
    return json ? [json.schema] : [];
  });
  if (!schemas.length) return undefined;
  const required = schemas.map((schema) => requiredProperties(document, schema));
  if (required.some((names) => names === undefined)) throw new Error(`${operationId}: a JSON success answer that is not an object`);
  return required[0]!.filter((name) => required.every((names) => names!.includes(name)));
}

interface TableEntry {
  method: string;
  path: string;
  group: string;
  name: string;
  pathParams: string[];
  query?: string[];
  body?: string;
  bodyRequired?: true;
  idempotent?: true;
  list?: true;
  accept: string[];
  requires?: string[];
  errors?: Record<string, string[]>;
}

/**
 * The media types each answer that is not a success declares, by its key in the spec (`404`, `4XX`, `default`): the
 * client reads an error body by them, not by what it asked for (a CSV report's 404 is JSON).
 */
function errorMediaTypes(document: OpenApiDocument, responses: Record<string, unknown>): Record<string, string[]> | undefined {
  const errors: Record<string, string[]> = {};
  for (const [status, response] of Object.entries(responses)) {
    if (/^2(\d\d|XX)$/i.test(status)) continue;
    const mediaTypes = Object.keys((deref(document, response)?.content ?? {}) as Node);
    if (mediaTypes.length) errors[status] = mediaTypes;
  }
  return Object.keys(errors).length ? errors : undefined;
}

function tableEntry(document: OpenApiDocument, entry: OpenApiOperation): TableEntry {
  const { operation, operationId } = entry;
  const tag = (operation.tags as string[] | undefined)?.[0];
  if (!tag) throw new Error(`${operationId} has no tag, so it has no resource group`);
  const pathParams = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const query = entry.parameters.filter((p) => p.in === 'query').map((p) => String(p.name));
  const requestBody = deref(document, operation.requestBody);
  const bodyTypes = Object.keys((requestBody?.content ?? {}) as Node);
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  const success = Object.keys(responses)
    .filter((status) => /^2\d\d$/.test(status))
    .map((status) => deref(document, responses[status]) ?? {});
  const accept = [...new Set(success.flatMap((r) => Object.keys((r.content ?? {}) as Node)))];
  const ok = success.find((r) => (r.content as Node | undefined)?.['application/json']);
  const okSchema = ((ok?.content as Record<string, Node> | undefined)?.['application/json'] as Node | undefined)?.schema;
  return {
    method: entry.method.toUpperCase(),
    path: entry.path,
    group: groupName(tag),
    name: methodName(operationId, tag),
    pathParams,
    query: query.length ? query : undefined,
    body: bodyTypes[0],
    bodyRequired: requestBody?.required === true ? true : undefined,
    idempotent: entry.idempotencyHeader !== undefined ? true : undefined,
    list: isPaginatedList(document, okSchema) ? true : undefined,
    accept: accept.length ? accept : ['application/json'],
    requires: answerRequires(document, operationId, success),
    errors: errorMediaTypes(document, responses),
  };
}

/** The idempotency header (the parameter the contract marks) and the limits of its value. */
function idempotencyRule(key: IdempotencyKey | undefined): Node | undefined {
  if (!key) return undefined;
  const { schema } = key;
  return { header: key.header, maxLength: schema.maxLength, minLength: schema.minLength, pattern: schema.pattern };
}

export function buildOperationTables(document: OpenApiDocument) {
  const model = openApiModel(document);
  const entries = model.operations;
  const tables: Record<string, Record<string, TableEntry>> = {};
  const schemes = Object.keys(((document.components as Node | undefined)?.securitySchemes ?? {}) as Node);
  for (const scheme of schemes) tables[scheme] = {};
  const taken = new Map<string, string>();
  for (const entry of entries) {
    const scheme = securityScheme(entry);
    const table = tables[scheme];
    if (!table) throw new Error(`${entry.operationId} requires the undeclared security scheme ${scheme}`);
    const row = tableEntry(document, entry);
    const qualified = `${row.group}.${row.name}`;
    const clash = taken.get(qualified);
    if (clash) throw new Error(`${entry.operationId} and ${clash} would both be ${qualified}`);
    taken.set(qualified, entry.operationId);
    table[entry.operationId] = row;
  }
  return { tables, idempotency: idempotencyRule(model.idempotencyKey) };
}

/**
 * Most operations take and answer the same media types and declare the same error answers: each distinct list of
 * media types, and each distinct set of error answers, is written once, as a constant the table entries name, which
 * keeps the module (and every bundle of the client) small.
 */
function sharedMediaTypes(tables: Record<string, Record<string, TableEntry>>): { lines: string[]; tables: Record<string, Record<string, unknown>> } {
  const listNames = new Map<string, Identifier>();
  const setNames = new Map<string, Identifier>();
  const listLines: string[] = [];
  const setLines: string[] = [];
  const list = (mediaTypes: string[]): Identifier => {
    const key = JSON.stringify(mediaTypes);
    let name = listNames.get(key);
    if (!name) {
      name = new Identifier(`mediaTypes${listNames.size + 1}`);
      listNames.set(key, name);
      listLines.push(`const ${name.name} = ${toLiteral(mediaTypes)} as const;`);
    }
    return name;
  };
  const errorSet = (errors: Record<string, string[]>): Identifier => {
    const key = JSON.stringify(errors);
    let name = setNames.get(key);
    if (!name) {
      name = new Identifier(`errorMediaTypes${setNames.size + 1}`);
      setNames.set(key, name);
      const byStatus = Object.fromEntries(Object.entries(errors).map(([status, mediaTypes]) => [status, list(mediaTypes)]));
      setLines.push(`const ${name.name} = ${toLiteral(byStatus)} as const;`, '');
    }
    return name;
  };
  const shared = Object.fromEntries(
    Object.entries(tables).map(([scheme, table]) => [
      scheme,
      Object.fromEntries(
        Object.entries(table).map(([operationId, row]) => [
          operationId,
          { ...row, accept: list(row.accept), ...(row.errors ? { errors: errorSet(row.errors) } : {}) },
        ]),
      ),
    ]),
  );
  return { lines: [...listLines, '', ...setLines], tables: shared };
}

export const paymentsOperationsGenerator: Generator = ({ document, specPath }) => {
  const built = buildOperationTables(document);
  const { idempotency } = built;
  const { lines: sharedLines, tables } = sharedMediaTypes(built.tables);
  const lines = [
    generatedHeader(specPath),
    '/** How to call one operation, as the spec describes it. */',
    'export interface OperationSpec {',
    "  readonly method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'TRACE';",
    '  /** Path template relative to the base address, with `{name}` placeholders. */',
    '  readonly path: string;',
    '  /** Resource group (from the tag) and method name (from the operationId) on the client. */',
    '  readonly group: string;',
    '  readonly name: string;',
    '  /** Path parameters in the order they appear in the path: the positional arguments of the method. */',
    '  readonly pathParams: readonly string[];',
    '  readonly query?: readonly string[];',
    '  /** Media type of the request body, when the operation takes one. */',
    '  readonly body?: string;',
    '  readonly bodyRequired?: true;',
    '  /** The operation takes the idempotency header. */',
    '  readonly idempotent?: true;',
    '  /** The answer is a page `{ links, data }` that `next` links continue. */',
    '  readonly list?: true;',
    '  /** Media types of the success answers; the first is asked for by default. */',
    '  readonly accept: readonly string[];',
    '  /**',
    '   * When a success answer is JSON: it is an object with these properties (the spec\'s `required`). Any other',
    '   * answer is another operation\'s (replayed under a reused Idempotency-Key) or comes from something in between.',
    '   */',
    '  readonly requires?: readonly string[];',
    '  /**',
    '   * Media types of the answers that are not a success, by status as the spec keys them (`404`, `4XX`, `default`):',
    '   * an error body is read as its status declares, whatever the call asked for.',
    '   */',
    '  readonly errors?: { readonly [status: string]: readonly string[] };',
    '}',
    '',
    '/** The idempotency header and the limits its value must respect. */',
    'export interface IdempotencyKeyRule {',
    '  readonly header: string;',
    '  readonly maxLength?: number;',
    '  readonly minLength?: number;',
    '  readonly pattern?: string;',
    '}',
    '',
    // The rule's values as constants of their own too, before any object or list of the module: a bundler (esbuild)
    // inlines such constants where the client reads them, and leaves out the rule's object, which it does not read.
    '// The idempotency rule\'s values, each on its own (undefined where the spec gives none), which the client reads.',
    ...(['header', 'minLength', 'maxLength', 'pattern'] as const).map((field) => {
      const value = idempotency?.[field];
      const type = field === 'header' || field === 'pattern' ? 'string' : 'number';
      return `export const idempotencyKey${field[0]!.toUpperCase()}${field.slice(1)}: ${type} | undefined = ${value === undefined ? 'undefined' : JSON.stringify(value)};`;
    }),
    '',
    `export const idempotencyKeyRule: IdempotencyKeyRule | null = ${toLiteral(idempotency ?? null)};`,
    '',
    '// The lists of media types, then the media types of error answers by status: each distinct one once (the entries',
    '// below name them).',
    ...sharedLines,
  ];
  for (const [scheme, table] of Object.entries(tables)) {
    const count = Object.keys(table).length;
    lines.push(`/** The ${count} operations that require the \`${scheme}\` security scheme. */`);
    lines.push(`export const ${scheme}Operations = ${toLiteral(table)} as const satisfies Record<string, OperationSpec>;`);
    lines.push('');
  }
  return [{ path: 'src/generated/operations.ts', content: lines.join('\n') }];
};
