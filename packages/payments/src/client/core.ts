import { inspectKey } from '#platform';
import { errorFromResponse, inputError, type PaymentsError } from '../errors/payments-error.js';
import type { OperationSpec } from '../generated/operations.js';
import { resolveBaseUrl, type ClientOptions } from './config.js';
import { callIdempotencyKey, idempotencyHeader } from './idempotency.js';
import type { ApiResult } from './api-result.js';
import type { GroupedMethods, OperationTable } from './method-types.js';
import { errorReader, isJson, readJson, readText, type ErrorMediaTypes } from './response-body.js';
import { createTransport, type BodyReader, type Transport } from './transport.js';

/** A request as the methods build it, before it is sent: what the checks look at. */
export interface PreparedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown> | undefined;
  header: Record<string, string> | undefined;
  body: unknown;
}

/** Checks (and may normalise) a request before it is sent; throws a PaymentsError of kind `input` to refuse it. */
export type RequestCheck = (operationId: string, request: PreparedRequest) => PreparedRequest;

/**
 * What a client does with a JSON success before the method resolves: the secret client refuses one that is not the
 * operation's answer (`checkAnswer`) and turns a list's first answer into a page that reads the ones after it
 * (`paginate`). The publishable client, which has no list and takes no payment, has none: its bundle does without.
 */
export type Finish = (core: ClientCore, operation: BoundOperation, outcome: ApiResult<unknown>, url: string, signal: AbortSignal | undefined) => unknown;

export interface ClientCore {
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly check: RequestCheck | undefined;
  readonly finish: Finish | undefined;
}

export function createCore(options: ClientOptions, check?: RequestCheck, finish?: Finish): ClientCore {
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const transport = createTransport(options);
  return { baseUrl, transport, check, finish };
}

/** Request headers as fetch takes them: a record, a `Headers` or `[name, value]` pairs. */
export type HeadersOption = Record<string, string> | Headers | readonly (readonly [string, string])[];

interface CallOptions {
  query?: Record<string, unknown>;
  headers?: HeadersOption;
  signal?: AbortSignal;
  accept?: string;
  idempotencyKey?: string;
}
/** One frozen empty object for every missing options argument or error media-type map (one name: a bundle keeps aliases). */
const nothing: CallOptions & ErrorMediaTypes = Object.freeze({});

/**
 * What a method needs from its spec entry, worked out once when the client is made rather than on every call: the
 * path template split around its `{name}` placeholders, and the media types that do not depend on the call. Every
 * field the call reads is copied here, so that all bound operations share one shape (the generated entries do not,
 * and reads on them would be megamorphic: slow once a request has evicted V8's lookup caches).
 */
export interface BoundOperation {
  readonly operationId: string;
  readonly method: string;
  readonly pathParams: readonly string[];
  /** The request body's media type, when the operation takes a body. */
  readonly body: string | undefined;
  readonly bodyRequired: boolean;
  readonly idempotent: boolean;
  readonly list: boolean;
  /** A JSON success is an object with these properties (see OperationSpec). */
  readonly requires: readonly string[] | undefined;
  /** Literal pieces of the path: one more than `pathParams`, whose placeholders sit between them. */
  readonly pathPieces: readonly string[];
  readonly accept: string;
  readonly acceptsJson: boolean;
  readonly sendsJson: boolean;
  /** Read a success as JSON or as text (as the call asked), an error answer as its status declares. */
  readonly readAsJson: BodyReader<unknown>;
  readonly readAsText: BodyReader<unknown>;
}

function bindOperation(operationId: string, spec: OperationSpec): BoundOperation {
  const split = spec.path.split(/\{([^}]+)\}/);
  const accept = spec.accept[0] ?? 'application/json';
  const readError = errorReader(spec.errors ?? nothing);
  return {
    operationId,
    method: spec.method,
    pathParams: spec.pathParams,
    body: spec.body,
    bodyRequired: spec.bodyRequired === true,
    idempotent: spec.idempotent === true,
    list: spec.list === true,
    requires: spec.requires,
    // The path parameters are the placeholders, in order (the generator reads them off the path the same way).
    pathPieces: split.filter((_, i) => i % 2 === 0),
    accept,
    acceptsJson: isJson(accept),
    sendsJson: !spec.body || isJson(spec.body),
    readAsJson: (response) => (response.ok ? readJson(response) : readError(response)),
    readAsText: (response) => (response.ok ? readText(response) : readError(response)),
  };
}

/** Path template filled with encoded values, then the query in form style (`k=a&k=b` for arrays). */
function buildUrl(
  baseUrl: string,
  operation: BoundOperation,
  path: Record<string, unknown>,
  query: Record<string, unknown> | undefined,
): string {
  const { pathPieces, pathParams } = operation;
  let url = baseUrl + pathPieces[0];
  for (let i = 0; i < pathParams.length; i++) {
    url += encodeURIComponent(String(path[pathParams[i]!])) + pathPieces[i + 1];
  }
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (typeof item === 'object') throw inputError(`The query parameter ${name} must be a string, number or boolean.`);
      search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

/** The caller's headers as `[name, value]` pairs, whichever form fetch takes they came in. */
function headerPairs(headers: HeadersOption): (readonly [string, string])[] {
  return Array.isArray(headers) || headers instanceof Headers ? [...(headers as Iterable<[string, string]>)] : Object.entries(headers);
}

/** Whether a path parameter's value addresses one resource: a non-empty string or a number, neither `.` nor `..`. */
export const validSegment = (value: unknown) => (typeof value === 'string' || typeof value === 'number') && !['', '.', '..'].includes(value as string);

export function pathParameterError(operationId: string, name: string, value: unknown): PaymentsError<'input'> {
  const problem = 'must be a non-empty string other than . and ..';
  return inputError(`${operationId}: the path parameter ${name} ${problem}.`, [{ fieldName: name, fieldValue: String(value), messages: [problem] }]);
}

async function callOperation(core: ClientCore, operation: BoundOperation, args: unknown[]) {
  const { operationId, pathParams } = operation;
  const path: Record<string, unknown> = {};
  for (let i = 0; i < pathParams.length; i++) {
    const name = pathParams[i]!;
    const value = args[i];
    // An empty or missing segment, `.` or `..` would silently address another resource (`/transactions/` is the list,
    // `/customers/../aliases` is `/aliases`).
    if (!validSegment(value)) throw pathParameterError(operationId, name, value);
    path[name] = value;
  }
  const afterPath = pathParams.length;
  const body = operation.body ? args[afterPath] : undefined;
  const options = (args[operation.body ? afterPath + 1 : afterPath] ?? nothing) as CallOptions;
  if (operation.bodyRequired && body === undefined) throw inputError(`${operationId} needs a request body.`);
  const given = options.headers && headerPairs(options.headers);
  const idempotencyKey = operation.idempotent && idempotencyHeader ? callIdempotencyKey(options.idempotencyKey, given) : undefined;
  let request: PreparedRequest = {
    path,
    query: options.query,
    // A key is made only when the spec names the header.
    header: idempotencyKey ? { [idempotencyHeader!]: idempotencyKey } : undefined,
    body,
  };
  if (core.check) request = core.check(operationId, request);

  const accept = options.accept ?? operation.accept;
  const acceptsJson = options.accept === undefined ? operation.acceptsJson : isJson(accept);
  const url = buildUrl(core.baseUrl, operation, request.path, request.query);
  // Names lower-cased, so that the client's own headers set below replace the caller's whatever their case (a caller's
  // Idempotency-Key header is the key itself, or was refused above).
  const pairs: (readonly [string, string])[] = [...(given ?? []), ['accept', accept], ...Object.entries(request.header ?? {})];
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) headers[name.toLowerCase()] = value;
  let payload: BodyInit | undefined;
  if (request.body !== undefined) {
    if (operation.sendsJson) {
      payload = JSON.stringify(request.body);
      headers['content-type'] = operation.body ?? 'application/json';
    } else {
      // Files and reports travel as given (string, Blob, FormData...); FormData sets its own multipart boundary.
      payload = request.body as BodyInit;
      if (!operation.body!.startsWith('multipart/')) headers['content-type'] = operation.body!;
    }
  }
  const { response, data, attempts, unknown, sentAt } = await core.transport(
    { method: operation.method, url, headers, body: payload, signal: options.signal },
    acceptsJson ? operation.readAsJson : operation.readAsText,
  );
  if (!response.ok) {
    throw errorFromResponse({ status: response.status, method: operation.method, url, body: data, headers: response.headers, idempotencyKey, attempts, unknown, sentAt });
  }
  const outcome: ApiResult<unknown> = { data, status: response.status, headers: response.headers, idempotencyKey, attempts };
  return acceptsJson && core.finish ? core.finish(core, operation, outcome, url, options.signal) : outcome;
}

/** The grouped methods of a table: `{ group: { name(...pathParams, body?, options?) } }`. */
export function bindOperations<T extends OperationTable>(core: ClientCore, table: T): GroupedMethods<T> {
  const groups: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [operationId, spec] of Object.entries(table)) {
    const operation = bindOperation(operationId, spec);
    (groups[spec.group] ??= {})[spec.name] = (...args: unknown[]) => callOperation(core, operation, args);
  }
  return groups as unknown as GroupedMethods<T>;
}

/** Keeps clients from printing anything but their address (the key is not on them, but say so plainly). */
export function describeClient<T extends object>(client: T, label: string, baseUrl: string): T {
  const text = `${label}(${baseUrl})`;
  Object.defineProperties(client, {
    toString: { value: () => text },
    toJSON: { value: () => ({ client: label, baseUrl }) },
  });
  // console.log under Node (the web build has no such key; a condition, not an `if`, leaves no trace of it there).
  return inspectKey ? Object.defineProperty(client, inspectKey, { value: () => text }) : client;
}
