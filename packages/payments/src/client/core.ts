import { errorFromResponse, inputError, PaymentsError } from '../errors/payments-error.js';
import type { OperationSpec } from '../generated/operations.js';
import { resolveBaseUrl, type ClientOptions } from './config.js';
import { checkIdempotencyKey, idempotencyHeader, newIdempotencyKey } from './idempotency.js';
import type { ApiResult, GroupedMethods, OperationTable } from './method-types.js';
import { createPage } from './page.js';
import { createTransport, type Exchange, type OutgoingRequest, type Transport } from './transport.js';

/** A request as the methods build it, before it is sent: what the checks look at. */
export interface PreparedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown> | undefined;
  header: Record<string, string> | undefined;
  body: unknown;
}

/** Checks (and may normalise) a request before it is sent; throws a PaymentsError of kind `input` to refuse it. */
export type RequestCheck = (operationId: string, request: PreparedRequest) => PreparedRequest;

export interface ClientCore {
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly check: RequestCheck | undefined;
}

export function createCore(options: ClientOptions, check?: RequestCheck): ClientCore {
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const transport = createTransport(options);
  return { baseUrl, transport, check };
}

interface CallOptions {
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  accept?: string;
  idempotencyKey?: string;
}

/** A failure while reading an answer: the deadline, the caller, or the connection. */
function readError(error: unknown, exchange: Exchange, method: string, url: string): unknown {
  if (error instanceof PaymentsError) return error;
  const kind = exchange.stoppedBy() ?? 'network';
  return new PaymentsError({
    kind,
    message: `${method} ${url}: the answer could not be read (${kind}).`,
    method,
    url,
    idempotencyKey: exchange.idempotencyKey,
    attempts: exchange.attempts,
    cause: error,
  });
}

/** Sends a request and reads its whole answer under the call's timeout. */
async function exchange(core: ClientCore, request: OutgoingRequest, json: boolean) {
  const sent = await core.transport(request);
  try {
    return { ...sent, data: await readBody(sent.response, json) };
  } catch (error) {
    throw readError(error, sent, request.method, request.url);
  } finally {
    sent.release();
  }
}

/**
 * Where a `next` link leads, on the configured base address: a link on another origin is re-based onto it (its path
 * after the base path is kept), so that the key only ever travels to the address the caller configured.
 */
export function followLink(baseUrl: string, href: string): string {
  const base = new URL(baseUrl + '/');
  const target = new URL(href, base);
  if (target.origin === base.origin && target.pathname.startsWith(base.pathname)) return target.href;
  const basePath = base.pathname.replace(/\/$/, '');
  const at = basePath ? target.pathname.indexOf(basePath + '/') : 0;
  if (at < 0) throw inputError(`The link ${href} is not under the API's base path ${basePath}.`);
  return baseUrl + target.pathname.slice(at + basePath.length) + target.search;
}

const isJson = (mediaType: string) => /[/+]json$/.test(mediaType);

/** Path template filled with encoded values, then the query in form style (`k=a&k=b` for arrays). */
function buildUrl(
  baseUrl: string,
  template: string,
  path: Record<string, unknown>,
  query: Record<string, unknown> | undefined,
): string {
  const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path[name])));
  if (!query) return baseUrl + filled;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (typeof item === 'object') throw inputError(`The query parameter ${name} must be a string, number or boolean.`);
      search.append(name, String(item));
    }
  }
  const text = search.toString();
  return baseUrl + filled + (text ? `?${text}` : '');
}

/** The answer's body: JSON when asked and present, else text; a body that is not valid JSON is kept as text. */
async function readBody(response: Response, json: boolean): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  if (!json) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function loadPage(core: ClientCore, href: string, signal: AbortSignal | undefined): Promise<ApiResult<unknown>> {
  const url = followLink(core.baseUrl, href);
  const { response, data, attempts } = await exchange(core, { method: 'GET', url, headers: { Accept: 'application/json' }, signal }, true);
  if (!response.ok) throw errorFromResponse({ status: response.status, method: 'GET', url, body: data, idempotencyKey: undefined, attempts });
  return { data, status: response.status, headers: response.headers, idempotencyKey: undefined, attempts };
}

async function callOperation(core: ClientCore, operationId: string, spec: OperationSpec, args: unknown[]) {
  const path: Record<string, unknown> = {};
  spec.pathParams.forEach((name, i) => {
    const value = args[i];
    // An empty or missing segment would silently address another resource (`/transactions/` is the list).
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') {
      throw inputError(`${operationId}: the path parameter ${name} must be a non-empty string.`, [
        { fieldName: name, fieldValue: String(value), messages: ['must be a non-empty string'] },
      ]);
    }
    path[name] = value;
  });
  const afterPath = spec.pathParams.length;
  const body = spec.body ? args[afterPath] : undefined;
  const options = (args[spec.body ? afterPath + 1 : afterPath] ?? {}) as CallOptions;
  if (spec.bodyRequired && body === undefined) throw inputError(`${operationId} needs a request body.`);
  const idempotencyKey =
    spec.idempotent && idempotencyHeader
      ? options.idempotencyKey === undefined
        ? newIdempotencyKey()
        : checkIdempotencyKey(options.idempotencyKey)
      : undefined;
  let request: PreparedRequest = {
    path,
    query: options.query,
    header: idempotencyKey && idempotencyHeader ? { [idempotencyHeader]: idempotencyKey } : undefined,
    body,
  };
  if (core.check) request = core.check(operationId, request);

  const accept = options.accept ?? spec.accept[0] ?? 'application/json';
  const url = buildUrl(core.baseUrl, spec.path, request.path, request.query);
  const headers: Record<string, string> = { ...options.headers, Accept: accept, ...request.header };
  let payload: BodyInit | undefined;
  if (request.body !== undefined) {
    if (!spec.body || isJson(spec.body)) {
      payload = JSON.stringify(request.body);
      headers['Content-Type'] = spec.body ?? 'application/json';
    } else {
      // Files and reports travel as given (string, Blob, FormData...); FormData sets its own multipart boundary.
      payload = request.body as BodyInit;
      if (!spec.body.startsWith('multipart/')) headers['Content-Type'] = spec.body;
    }
  }
  const { response, data, attempts } = await exchange(core, { method: spec.method, url, headers, body: payload, signal: options.signal }, isJson(accept));
  if (!response.ok) {
    throw errorFromResponse({ status: response.status, method: spec.method, url, body: data, idempotencyKey, attempts });
  }
  const outcome: ApiResult<unknown> = { data, status: response.status, headers: response.headers, idempotencyKey, attempts };
  if (!spec.list || !isJson(accept)) return outcome;
  return createPage(outcome, (href) => loadPage(core, href, options.signal));
}

/** The grouped methods of a table: `{ group: { name(...pathParams, body?, options?) } }`. */
export function bindOperations<T extends OperationTable>(core: ClientCore, table: T): GroupedMethods<T> {
  const groups: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [operationId, spec] of Object.entries(table)) {
    (groups[spec.group] ??= {})[spec.name] = (...args: unknown[]) => callOperation(core, operationId, spec, args);
  }
  return groups as unknown as GroupedMethods<T>;
}

/** Keeps clients from printing anything but their address (the key is not on them, but say so plainly). */
export function describeClient<T extends object>(client: T, label: string, baseUrl: string): T {
  const text = `${label}(${baseUrl})`;
  Object.defineProperties(client, {
    toString: { value: () => text },
    toJSON: { value: () => ({ client: label, baseUrl }) },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => text },
  });
  return client;
}
