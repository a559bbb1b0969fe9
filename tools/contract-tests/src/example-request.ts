import { deref, isNode, type DocumentNode, type OpenApiDocument, type OpenApiParameter } from '@paykit/contracts';
import { isJsonMediaType, type OperationInfo } from './openapi-document.js';

/** One way of calling an operation, built from the spec alone. */
export interface ExampleRequest {
  /** `<request example>` or `no body`; part of the test name. */
  label: string;
  path: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** Media type of the body, when there is one. */
  bodyMediaType: string | undefined;
}

function firstExample(parameter: OpenApiParameter, schema: DocumentNode): unknown {
  if ('example' in parameter.node) return parameter.node.example;
  const named = Object.values(isNode(parameter.node.examples) ? parameter.node.examples : {})[0];
  if (isNode(named) && 'value' in named) return named.value;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  return undefined;
}

/**
 * A value the schema accepts, for a parameter the spec gives no example of: the first enum value, or a readable
 * string made from the parameter name, padded or cut to the length limits and checked against the pattern.
 */
export function schemaValidString(document: OpenApiDocument, rawSchema: unknown, hint: string): string {
  const schema = deref(document, rawSchema) ?? {};
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  if ('const' in schema) return String(schema.const);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return String(schema.examples[0]);
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  if (schema.format === 'date') return '2026-01-15';
  if (schema.format === 'date-time') return '2026-01-15T10:30:00Z';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
  const base = `${hint.replace(/[^A-Za-z0-9]/g, '')}-1`;
  // Readable first, then runs of one character of each common class, of every length up to 64.
  const runs = Array.from({ length: 64 }, (_, i) => ['1', 'A', 'a'].map((c) => c.repeat(i + 1))).flat();
  const candidates = [base, base.replace(/-/g, ''), ...runs].map((c) => c.padEnd(min, '0'));
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const found = candidates.find((c) => c.length >= min && c.length <= max && (!pattern || pattern.test(c)));
  if (found !== undefined) return found;
  throw new Error(`No schema-valid value for ${hint}: add an example to the parameter in the spec`);
}

function parameterValue(document: OpenApiDocument, parameter: OpenApiParameter): string {
  const schema = deref(document, parameter.schema) ?? {};
  const example = firstExample(parameter, schema);
  return example === undefined ? schemaValidString(document, schema, parameter.name) : String(example);
}

/**
 * The requests the matrix sends for an operation: one per request body example (or one without a body), with path
 * parameters and required query parameters from their examples or schema-valid values.
 */
export function exampleRequests(document: OpenApiDocument, operation: OperationInfo): ExampleRequest[] {
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') path[parameter.name] = parameterValue(document, parameter);
    if (parameter.in === 'query' && parameter.required) query[parameter.name] = parameterValue(document, parameter);
  }
  const content = operation.requestBody?.content[0];
  if (!content) return [{ label: 'no body', path, query, body: undefined, bodyMediaType: undefined }];
  if (content.examples.length === 0) {
    // A file body (any media type) has no meaningful example in a spec: a few bytes are a valid instance.
    if (!isJsonMediaType(content.mediaType)) {
      const mediaType = content.mediaType.includes('*') ? 'application/octet-stream' : content.mediaType;
      return [{ label: 'file bytes', path, query, body: 'contract test file\n', bodyMediaType: mediaType }];
    }
    if (operation.requestBody?.required && isNode(content.schema)) {
      throw new Error(`${operation.operationId}: the request body has no example; the matrix needs one per operation`);
    }
    return [{ label: 'no body', path, query, body: undefined, bodyMediaType: undefined }];
  }
  return content.examples.map((example) => ({
    label: example.name,
    path,
    query,
    body: example.value,
    bodyMediaType: content.mediaType,
  }));
}
