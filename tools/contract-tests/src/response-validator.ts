import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { deref, type OpenApiDocument, type OpenApiMedia, type OpenApiResponse } from '@paykit/contracts';
import { isJsonMediaType, type OperationInfo } from './openapi-document.js';

// ajv-formats is CommonJS with a `default` property; under NodeNext the default import is the module object.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as unknown as (ajv: Ajv2020) => void;

/** What came back on the wire, before any client read it. */
export interface WireResponse {
  status: number;
  headers: Headers;
  /** The raw body text ('' when empty). */
  text: string;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Headers;
  text: string;
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

function mediaMatches(declared: string, actual: string): boolean {
  if (declared === '*/*') return true;
  const [type, subtype] = declared.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return type === actualType && (subtype === '*' || subtype === actualSubtype);
}

const spanned = (schemaPath: string) => schemaPath.replace(/^#/, '');

/**
 * Checks requests and responses against one spec with ajv (JSON Schema 2020-12 plus formats). The whole document is
 * registered once, so every `$ref` inside it resolves; each schema is compiled on first use by its JSON pointer.
 */
export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly documentId: string;
  private readonly document: OpenApiDocument;

  constructor(document: OpenApiDocument, name: string) {
    this.document = document;
    // strict off: OpenAPI keeps its own keywords (discriminator, example, x-...) beside JSON Schema's.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.documentId = `https://contracts.paykit.test/${name}.json`;
    this.ajv.addSchema({ ...document, $id: this.documentId });
  }

  private validatorAt(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      // Segments are percent-encoded: path templates put `{` and `}` in pointers, which a URI fragment may not hold.
      const fragment = pointer
        .replace(/^#/, '')
        .split('/')
        .map((segment) => encodeURIComponent(segment))
        .join('/');
      validate = this.ajv.compile({ $ref: `${this.documentId}#${fragment}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** Problems of a JSON value against the schema at a pointer of the document (empty when valid). */
  check(pointer: string, value: unknown): string[] {
    const validate = this.validatorAt(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} (${spanned(e.schemaPath)})`);
  }

  /** The declared response for a status: exact, then `2XX`-style ranges, then `default`. */
  static declaredResponse(operation: OperationInfo, status: number): OpenApiResponse | undefined {
    return (
      operation.responses.find((r) => r.status === String(status)) ??
      operation.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ??
      operation.responses.find((r) => r.status === 'default')
    );
  }

  /**
   * Status declared, declared headers present when required and valid, content type declared, and the body valid
   * against its schema. Returns every problem found.
   */
  checkResponse(operation: OperationInfo, wire: WireResponse): string[] {
    const declared = ContractValidator.declaredResponse(operation, wire.status);
    if (!declared) return [`status ${wire.status} is not declared for ${operation.operationId}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared.headers)) {
      const value = wire.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (header.schemaPointer) problems.push(...this.check(header.schemaPointer, value));
    }
    if (declared.content.length === 0) {
      if (wire.text.length > 0) problems.push(`status ${wire.status} declares no body, got ${wire.text.length} characters`);
      return problems;
    }
    if (wire.text.length === 0 && wire.status === 204) return problems;
    const mediaType = mediaTypeOf(wire.headers.get('content-type'));
    if (!mediaType) return [...problems, 'the response has a body but no Content-Type'];
    const content = declared.content.find((c) => mediaMatches(c.mediaType, mediaType));
    if (!content) {
      return [...problems, `content type ${mediaType} is not declared (${declared.content.map((c) => c.mediaType).join(', ')})`];
    }
    return [...problems, ...this.checkBody(content, wire.text)];
  }

  /**
   * The query and header parameters of a request: required ones present, every declared one that was sent valid
   * against its schema. (Path parameters are checked by the mock routing the request at all.)
   */
  checkRequestParameters(operation: OperationInfo, request: WireRequest): string[] {
    const problems: string[] = [];
    const query = new URL(request.url).searchParams;
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'query' && parameter.in !== 'header') continue;
      const value = parameter.in === 'query' ? query.get(parameter.name) : request.headers.get(parameter.name);
      if (value === null) {
        if (parameter.required) problems.push(`required ${parameter.in} parameter ${parameter.name} was not sent`);
        continue;
      }
      if (!parameter.schemaPointer) continue;
      // Query values are text on the wire: a number or boolean schema is checked on the value read as JSON.
      let typed: unknown = value;
      const type = deref(this.document, parameter.schema)?.type;
      if (parameter.in === 'query' && /^(-?\d+(\.\d+)?|true|false)$/.test(value) && type !== 'string') typed = JSON.parse(value);
      problems.push(...this.check(parameter.schemaPointer, typed).map((p) => `${parameter.in} ${parameter.name}: ${p}`));
    }
    return problems;
  }

  /** A request body (JSON ones against their schema; others are only checked for their media type). */
  checkRequestBody(operation: OperationInfo, request: WireRequest): string[] {
    if (!operation.requestBody) return request.text ? ['the operation takes no body, one was sent'] : [];
    if (!request.text) return operation.requestBody.required ? ['the required body was not sent'] : [];
    const mediaType = mediaTypeOf(request.headers.get('content-type'));
    if (!mediaType) return ['the body was sent without Content-Type'];
    const content = operation.requestBody.content.find((c) => mediaMatches(c.mediaType, mediaType));
    if (!content) return [`request content type ${mediaType} is not declared`];
    return this.checkBody(content, request.text);
  }

  private checkBody(content: OpenApiMedia, text: string): string[] {
    if (!content.schemaPointer || !isJsonMediaType(content.mediaType)) return [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`the ${content.mediaType} body is not JSON`];
    }
    return this.check(content.schemaPointer, value);
  }
}
