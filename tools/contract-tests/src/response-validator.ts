import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import {
  isJsonMediaType,
  type MediaContent,
  type OpenApiDocument,
  type OperationInfo,
  type ResponseSpec,
} from './openapi-document.js';

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
  static declaredResponse(operation: OperationInfo, status: number): ResponseSpec | undefined {
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
    const responsePointer = `${operation.pointer}/responses/${declared.status}`;
    for (const [name, header] of Object.entries(declared.headers)) {
      const value = wire.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (header.schema) problems.push(...this.checkResolved(`${responsePointer}`, ['headers', name, 'schema'], value));
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
    return [...problems, ...this.checkBody(`${responsePointer}`, content, wire.text)];
  }

  /**
   * The query and header parameters of a request: required ones present, every declared one that was sent valid
   * against its schema. (Path parameters are checked by the mock routing the request at all.)
   */
  checkRequestParameters(operation: OperationInfo, request: WireRequest): string[] {
    const problems: string[] = [];
    const query = new URL(request.url).searchParams;
    operation.parameters.forEach((parameter, index) => {
      if (parameter.in !== 'query' && parameter.in !== 'header') return;
      const value = parameter.in === 'query' ? query.get(parameter.name) : request.headers.get(parameter.name);
      if (value === null) {
        if (parameter.required) problems.push(`required ${parameter.in} parameter ${parameter.name} was not sent`);
        return;
      }
      const schema = this.schemaOfParameter(operation, index);
      // Query values are text on the wire: a number or boolean schema is checked on the value read as JSON.
      let typed: unknown = value;
      if (parameter.in === 'query' && /^(-?\d+(\.\d+)?|true|false)$/.test(value) && schema.type !== 'string') typed = JSON.parse(value);
      problems.push(...this.check(schema.pointer, typed).map((p) => `${parameter.in} ${parameter.name}: ${p}`));
    });
    return problems;
  }

  private schemaOfParameter(operation: OperationInfo, index: number): { pointer: string; type: unknown } {
    // Parameters may sit on the operation or on its path item; find the one with this name and place.
    const wanted = operation.parameters[index]!;
    const pathItemPointer = operation.pointer.replace(/\/[^/]+$/, '');
    for (const holder of [operation.pointer, pathItemPointer]) {
      const list = this.nodeAt(`${holder}/parameters`);
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) {
        const pointer = this.followRefs(`${holder}/parameters/${i}`);
        const node = this.nodeAt(pointer) as { name?: string; in?: string } | undefined;
        if (node?.name === wanted.name && node.in === wanted.in) {
          const schemaPointer = `${pointer}/schema`;
          let schema = this.nodeAt(schemaPointer) as { type?: unknown; $ref?: unknown } | undefined;
          for (let hops = 0; typeof schema?.$ref === 'string' && hops < 32; hops++) schema = this.nodeAt(schema.$ref) as typeof schema;
          return { pointer: schemaPointer, type: schema?.type };
        }
      }
    }
    throw new Error(`${operation.operationId}: parameter ${wanted.name} not found in the document`);
  }

  /** A request body (JSON ones against their schema; others are only checked for their media type). */
  checkRequestBody(operation: OperationInfo, request: WireRequest): string[] {
    if (!operation.requestBody) return request.text ? ['the operation takes no body, one was sent'] : [];
    if (!request.text) return operation.requestBody.required ? ['the required body was not sent'] : [];
    const mediaType = mediaTypeOf(request.headers.get('content-type'));
    if (!mediaType) return ['the body was sent without Content-Type'];
    const content = operation.requestBody.content.find((c) => mediaMatches(c.mediaType, mediaType));
    if (!content) return [`request content type ${mediaType} is not declared`];
    return this.checkBody(`${operation.pointer}/requestBody`, content, request.text);
  }

  private checkBody(holderPointer: string, content: MediaContent, text: string): string[] {
    if (!content.schema || !isJsonMediaType(content.mediaType)) return [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`the ${content.mediaType} body is not JSON`];
    }
    return this.checkResolved(holderPointer, ['content', content.mediaType, 'schema'], value);
  }

  /**
   * Validates against a schema reached from a node by a path of keys, following any `$ref` met on the way (a shared
   * response, request body or header), so that ajv compiles the schema where it really is.
   */
  private checkResolved(holderPointer: string, below: string[], value: unknown): string[] {
    let pointer = this.followRefs(holderPointer);
    for (const key of below) pointer = this.followRefs(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    return this.check(pointer, value);
  }

  private followRefs(pointer: string): string {
    let current = pointer;
    for (let hops = 0; hops < 32; hops++) {
      const node = this.nodeAt(current) as { $ref?: unknown } | undefined;
      // A schema's own `$ref` is left to ajv; only the OpenAPI objects around schemas are followed here.
      if (!node || typeof node.$ref !== 'string' || current.endsWith('/schema')) return current;
      current = node.$ref;
    }
    throw new Error(`Reference cycle at ${pointer}`);
  }

  private nodeAt(pointer: string): unknown {
    return pointer
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), this.document);
  }
}
