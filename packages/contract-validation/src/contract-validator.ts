import { acceptAdmits, isJsonMediaType, mediaTypeCovers, mediaTypeOf } from './media-types.js';
import type { ContractTable, MediaEntry, OperationEntry, ParameterEntry, ResponseEntry, SchemaEntry } from './operation-table.js';
import { OperationMatcher, type MatchedOperation } from './operation-matcher.js';
import { schemaProblems, type Problem, type Side } from './problems.js';

/** Header values as Node gives them: names lower-cased, repeated ones as arrays. */
export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request as it crossed the wire. */
export interface RequestMessage {
  readonly headers: HeaderValues;
  /** The query string's values (`new URL(...).searchParams`, or the part after `?`). */
  readonly query?: URLSearchParams;
  /** The body's bytes or text; empty or undefined for none. */
  readonly body?: Uint8Array | string;
  /** The body already parsed as JSON by the caller (saves parsing it twice); `undefined` to have it parsed here. */
  readonly json?: unknown;
}

/** An answer as it crossed the wire. */
export interface AnswerMessage {
  readonly status: number;
  readonly headers: HeaderValues;
  readonly body?: Uint8Array | string;
  readonly json?: unknown;
}

const decoder = new TextDecoder();
const lengthOf = (body: Uint8Array | string | undefined) => (body === undefined ? 0 : body.length);
const textOf = (body: Uint8Array | string) => (typeof body === 'string' ? body : decoder.decode(body));
const first = (value: string | readonly string[] | undefined): string | undefined => (typeof value === 'string' ? value : value?.[0]);

/** A parse that failed: no value of the body is kept. */
const notJson = Symbol('not JSON');

function parseJson(message: { body?: Uint8Array | string; json?: unknown }): unknown {
  if (message.json !== undefined) return message.json;
  try {
    return JSON.parse(textOf(message.body!)) as unknown;
  } catch {
    return notJson;
  }
}

const numeric = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;

/** A value that arrived as text, read as the type its schema says (a query `page=2` is the number 2). */
function typed(parameter: ParameterEntry, text: string): unknown {
  if ((parameter.type === 'integer' || parameter.type === 'number') && numeric.test(text)) return Number(text);
  if (parameter.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The declared answer of a status: exact, then its range (`4XX`), then `default`. */
export function declaredAnswer(operation: OperationEntry, status: number): ResponseEntry | undefined {
  const exact = String(status);
  return operation.responses[exact] ?? operation.responses[`${exact[0]}XX`] ?? operation.responses[`${exact[0]}xx`] ?? operation.responses.default;
}

const successTypes = new WeakMap<OperationEntry, readonly string[]>();

/** The media types of an operation's success answers (what an `Accept` should admit), each once. */
export function successMediaTypes(operation: OperationEntry): readonly string[] {
  let types = successTypes.get(operation);
  if (!types) {
    const found = new Set<string>();
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (status.startsWith('2')) for (const media of answer.content) found.add(media.mediaType);
    }
    types = [...found];
    successTypes.set(operation, types);
  }
  return types;
}

/**
 * The validator of one contract: finds the operation of a request, and checks a request or an answer of it against
 * everything the contract says of it (parameters, security, media types, bodies, statuses, answer headers) with the
 * schemas compiled at generation time. One instance per contract; it holds no state between messages.
 */
export class ContractValidator {
  private readonly matcher: OperationMatcher;
  private readonly byId: ReadonlyMap<string, OperationEntry>;

  constructor(readonly contract: ContractTable) {
    this.matcher = new OperationMatcher(contract.operations);
    this.byId = new Map(contract.operations.map((operation) => [operation.id, operation]));
  }

  /** The operation of a request: `path` is under the base path (`/transactions/123`), as sent. */
  match(method: string, path: string): MatchedOperation | undefined {
    return this.matcher.match(method, path);
  }

  /** The operation called `id`; throws naming the contract otherwise. */
  operation(id: string): OperationEntry {
    const found = this.byId.get(id);
    if (!found) throw new Error(`the ${this.contract.name} contract has no operation ${JSON.stringify(id)}`);
    return found;
  }

  /** Problems of `value` against one compiled schema; `location` prefixes where each is (`body`). */
  checkSchema(schema: SchemaEntry, value: unknown, side: Side, location: string): Problem[] {
    if (schema.validate(value)) return [];
    return schemaProblems(schema.validate.errors ?? [], side, location, this.contract.schemaSources);
  }

  /** Whether an `Accept` header admits one of the media types the operation answers with on success. */
  acceptable(operation: OperationEntry, accept: string): boolean {
    return acceptAdmits(accept, successMediaTypes(operation));
  }

  /** Every problem of a request of a matched operation: parameters, credentials, body. */
  checkRequest(matched: MatchedOperation, request: RequestMessage): Problem[] {
    const { operation } = matched;
    const problems: Problem[] = [];
    for (const parameter of operation.parameters) this.checkParameter(operation, parameter, matched, request, problems);
    this.checkSecurity(operation, request, problems);
    const length = lengthOf(request.body);
    const declared = operation.requestBody;
    if (!declared) {
      if (length > 0) problems.push({ rule: 'openapi:body', side: 'request', location: 'body', message: 'the operation takes no body; one was sent', source: operation.source });
      return problems;
    }
    if (length === 0) {
      if (declared.required) problems.push({ rule: 'openapi:required', side: 'request', location: 'body', message: 'the operation requires a body; none was sent', source: `${operation.source}/requestBody` });
      return problems;
    }
    this.checkBody(operation, declared.content, request, 'request', `${operation.source}/requestBody`, problems);
    return problems;
  }

  /** Every problem of an answer to an operation: its status, its headers, its media type and body. */
  checkAnswer(operation: OperationEntry, answer: AnswerMessage): Problem[] {
    const declared = declaredAnswer(operation, answer.status);
    const source = `${operation.source}/responses`;
    if (!declared) {
      const statuses = Object.keys(operation.responses).join(', ');
      return [{ rule: 'openapi:status', side: 'answer', location: 'status', message: `${answer.status} is not an answer of ${operation.id} (${statuses})`, source }];
    }
    const problems: Problem[] = [];
    for (const [name, header] of Object.entries(declared.headers)) {
      const value = first(answer.headers[name.toLowerCase()]);
      if (value === undefined) {
        if (header.required) problems.push({ rule: 'openapi:required', side: 'answer', location: `header.${name}`, message: 'is required', source });
      } else if (header.schema) {
        problems.push(...this.checkSchema(header.schema, value, 'answer', `header.${name}`));
      }
    }
    const length = lengthOf(answer.body);
    if (declared.content.length === 0) {
      if (length > 0) problems.push({ rule: 'openapi:body', side: 'answer', location: 'body', message: `a ${answer.status} answer of ${operation.id} has no body in the contract; one came`, source });
      return problems;
    }
    if (length === 0) {
      if (answer.status === 204 || answer.status === 304) return problems;
      // An empty text is still a text (a report with no lines): a success in a declared non-JSON media type may be empty.
      const mediaType = mediaTypeOf(first(answer.headers['content-type']));
      if (answer.status < 400 && mediaType !== undefined && !isJsonMediaType(mediaType) && declared.content.some((entry) => mediaTypeCovers(entry.mediaType, mediaType))) {
        return problems;
      }
      const media = declared.content.map((entry) => entry.mediaType).join(', ');
      problems.push(
        answer.status >= 400
          ? { rule: 'error-body', side: 'answer', location: 'body', message: `a ${answer.status} answer must carry the error body (${media}); it came empty`, source }
          : { rule: 'openapi:body', side: 'answer', location: 'body', message: `a ${answer.status} answer carries a body (${media}); it came empty`, source },
      );
      return problems;
    }
    this.checkBody(operation, declared.content, answer, 'answer', source, problems);
    return problems;
  }

  private checkParameter(operation: OperationEntry, parameter: ParameterEntry, matched: MatchedOperation, request: RequestMessage, problems: Problem[]) {
    let text: string | undefined;
    if (parameter.in === 'path') text = matched.pathParams[parameter.name];
    else if (parameter.in === 'query') text = request.query?.get(parameter.name) ?? undefined;
    else if (parameter.in === 'header') text = first(request.headers[parameter.name.toLowerCase()]);
    else return; // cookies: the contracts have none
    const location = `${parameter.in}.${parameter.name}`;
    if (text === undefined) {
      if (parameter.required) problems.push({ rule: 'openapi:required', side: 'request', location, message: 'is required', source: `${operation.source}/parameters` });
      return;
    }
    if (parameter.schema) problems.push(...this.checkSchema(parameter.schema, typed(parameter, text), 'request', location));
  }

  /** HTTP and API-key schemes are checked for presence; mutual TLS is below HTTP and cannot be seen here. */
  private checkSecurity(operation: OperationEntry, request: RequestMessage, problems: Problem[]) {
    if (operation.security.length === 0) return;
    const missing: string[] = [];
    for (const name of operation.security) {
      const scheme = this.contract.securitySchemes[name];
      if (!scheme) continue;
      if (scheme.type === 'http') {
        const authorization = first(request.headers.authorization);
        const wanted = (scheme.scheme ?? '').toLowerCase();
        if (authorization !== undefined && authorization.slice(0, wanted.length + 1).toLowerCase() === `${wanted} `) return;
        missing.push(`Authorization: ${scheme.scheme ?? 'credentials'}`);
      } else if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) {
        if (first(request.headers[scheme.name.toLowerCase()]) !== undefined) return;
        missing.push(scheme.name);
      } else {
        return; // mutualTLS, oauth2, openIdConnect: not visible in the message, so not refused for it
      }
    }
    if (missing.length > 0) {
      problems.push({
        rule: 'openapi:security',
        side: 'request',
        location: 'header.Authorization',
        message: `the operation requires credentials (${missing.join(' or ')}); none were sent`,
        source: `${operation.source}/security`,
      });
    }
  }

  private checkBody(operation: OperationEntry, content: readonly MediaEntry[], message: RequestMessage | AnswerMessage, side: Side, source: string, problems: Problem[]) {
    const mediaType = mediaTypeOf(first(message.headers['content-type']));
    // The declared list is spelled out only in a problem's message.
    const declared = () => content.map((entry) => entry.mediaType).join(', ');
    if (mediaType === undefined) {
      problems.push({ rule: 'openapi:content-type', side, location: 'header.Content-Type', message: `a body came without Content-Type (${declared()})`, source });
      return;
    }
    const entry = content.find((candidate) => mediaTypeCovers(candidate.mediaType, mediaType));
    if (!entry) {
      problems.push({ rule: 'openapi:content-type', side, location: 'header.Content-Type', message: `${mediaType} is not a media type of ${operation.id} here (${declared()})`, source });
      return;
    }
    if (!entry.schema || !isJsonMediaType(mediaType)) return;
    const value = parseJson(message);
    if (value === notJson) {
      problems.push({ rule: 'openapi:body', side, location: 'body', message: `the ${mediaType} body is not JSON`, source });
      return;
    }
    problems.push(...this.checkSchema(entry.schema, value, side, 'body'));
  }
}
