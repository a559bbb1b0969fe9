import { canonicalPointer, declarationsOf, openApiModel, type OpenApiContractModel, type OpenApiMedia, type OpenApiOperation } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';
import { Identifier } from './openapi-walk.js';
import { OPEN_ENUM_EXTENSION } from './types.js';
import type { OperationContent, OperationEntry, OperationParameter, OperationResponse, OperationTable } from './operation-table-types.js';

/**
 * A contract's operation table, for a server that routes requests and checks them by the contract (the payments
 * sandbox): each operation's method and path, its key types, its idempotency header, its parameters, and the schema of
 * every body and answer by media type and status, as JSON pointers into the bundled contract where the `$ref`s end
 * (`#/components/schemas/Transaction`). Everything a run-time reader of the spec would work out, worked out once by
 * @paykit/contracts, so that nothing parses the spec at run time.
 */

/**
 * Where the `$ref`s of a schema written at `pointer` end, escaped as `pointerTo` writes pointers (a `$ref` may
 * percent-encode what a reader without percent-decoding would not find); undefined when there is no schema.
 */
const schemaPointer = (model: OpenApiContractModel, pointer: string | undefined) =>
  pointer === undefined ? undefined : canonicalPointer(model.resolvePointer(pointer));

function content(model: OpenApiContractModel, media: readonly OpenApiMedia[]): OperationContent {
  return Object.fromEntries(media.map((m) => [m.mediaType, schemaPointer(model, m.schemaPointer) ?? null]));
}

function parameters(model: OpenApiContractModel, operation: OpenApiOperation): OperationParameter[] {
  return operation.parameters.map((parameter) => {
    const type = model.deref(parameter.schema)?.type;
    return {
      name: parameter.name,
      in: parameter.in,
      // OpenAPI: a path parameter is always required.
      required: parameter.required || parameter.in === 'path',
      ...(parameter.schemaPointer ? { schema: schemaPointer(model, parameter.schemaPointer) } : {}),
      ...(typeof type === 'string' ? { type } : {}),
    };
  });
}

/** The open-list fields of the schema at `pointer` (its own properties and those of its `allOf` parts), by name. */
function openValues(model: OpenApiContractModel, pointer: string, found: Record<string, string[]> = {}, seen = new Set<string>()): Record<string, string[]> {
  const at = model.resolvePointer(pointer);
  if (seen.has(at)) return found;
  seen.add(at);
  const schema = model.nodeAt(at) as { properties?: Record<string, unknown>; allOf?: unknown[] } | undefined;
  for (const name of Object.keys(schema?.properties ?? {})) {
    const published = model.deref(schema!.properties![name])?.[OPEN_ENUM_EXTENSION];
    if (Array.isArray(published)) found[name] = published.map(String);
  }
  (schema?.allOf ?? []).forEach((_, index) => openValues(model, `${at}/allOf/${index}`, found, seen));
  return found;
}

function entry(model: OpenApiContractModel, operation: OpenApiOperation): OperationEntry {
  const { requestBody, idempotencyHeader } = operation;
  const jsonBody = requestBody?.content.find((media) => media.mediaType === 'application/json')?.schemaPointer;
  const open = jsonBody === undefined ? {} : openValues(model, jsonBody);
  return {
    method: operation.method.toUpperCase(),
    path: operation.path,
    security: operation.security,
    ...(idempotencyHeader !== undefined ? { idempotencyHeader } : {}),
    parameters: parameters(model, operation),
    ...(requestBody ? { requestBody: { required: requestBody.required, content: content(model, requestBody.content) } } : {}),
    ...(Object.keys(open).length > 0 ? { openValues: open } : {}),
    responses: Object.fromEntries(operation.responses.map((answer) => [answer.status, { headers: Object.keys(answer.headers), content: content(model, answer.content) }])),
  };
}

/** The operation table of an OpenAPI contract. */
export function buildOperationTable(model: OpenApiContractModel): OperationTable {
  const idempotencyHeader = model.idempotencyKey?.header;
  const webhooks = Object.fromEntries(
    model.webhooks
      .filter((webhook) => webhook.method === 'post')
      .map((webhook) => [webhook.path, schemaPointer(model, webhook.requestBody?.content.find((media) => media.mediaType === 'application/json')?.schemaPointer) ?? null]),
  );
  return {
    basePath: model.basePath,
    ...(idempotencyHeader !== undefined ? { idempotencyHeader } : {}),
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    operations: Object.fromEntries(model.operations.map((operation) => [operation.operationId, entry(model, operation)])),
  };
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** A value on one line, `Identifier`s by name: `{ name: "id", in: "path", required: true }`. */
function inline(value: unknown): string {
  if (value instanceof Identifier) return value.name;
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${key(k)}: ${inline(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * The table's source: each distinct answer once, as a constant the operations name (most share their error answers),
 * and each operation a few lines, one per field, so that the module stays small in the package that ships it.
 */
function printTable(name: string, table: OperationTable, specPath: string): string[] {
  const answers = new Map<string, Identifier>();
  const lines: string[] = [];
  const named = (answer: OperationResponse): Identifier => {
    const text = inline(answer);
    let id = answers.get(text);
    if (!id) {
      answers.set(text, (id = new Identifier(`answer${answers.size + 1}`)));
      lines.push(`const ${id.name}: OperationResponse = ${text};`);
    }
    return id;
  };
  const operations = Object.entries(table.operations).map(([id, operation]) => {
    const responses = Object.fromEntries(Object.entries(operation.responses).map(([status, answer]) => [status, named(answer)]));
    const fields = Object.entries({ ...operation, responses }).map(([field, value]) => `      ${field}: ${inline(value)},`);
    return `    ${key(id)}: {\n${fields.join('\n')}\n    },`;
  });
  const head = Object.entries(table)
    .filter(([field]) => field !== 'operations')
    .map(([field, value]) => `  ${field}: ${inline(value)},`);
  return [
    '// The answers of the operations, each distinct one once (the table names them).',
    ...lines,
    '',
    `/** The operations of ${specPath}, by operationId. */`,
    // Typed by annotation, not `as const`: its declaration stays one line instead of the whole table again.
    `export const ${name}: OperationTable = {`,
    ...head,
    '  operations: {',
    ...operations,
    '  },',
    '};',
  ];
}

/**
 * The table of the contract at `path`, exported as `name`. The table's types are declared in the first table of a
 * package and imported from it (`typesFrom`, relative to `path`) by the others.
 */
export const operationTableGenerator =
  (path: string, name: string, typesFrom?: string): Generator =>
  ({ document, specPath }) => {
    const table = buildOperationTable(openApiModel(document));
    const lines = [
      generatedHeader(specPath),
      typesFrom === undefined
        ? // The table's shape, written once, in codegen's operation-table-types.ts.
          declarationsOf(new URL('./operation-table-types.ts', import.meta.url))
        : `import type { OperationResponse, OperationTable } from '${typesFrom}';\n`,
      ...printTable(name, table, specPath),
      '',
    ];
    return [{ path, content: lines.join('\n') }];
  };
