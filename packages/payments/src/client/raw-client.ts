import createClient, { type Client } from 'openapi-fetch';
import { configurationError } from '../errors/payments-error.js';
import type { paths } from '../generated/openapi.js';
import { secretKeyOperations, type OperationSpec } from '../generated/operations.js';
import { checkAnswer } from './answer-check.js';
import { pathParameterError, validSegment } from './core.js';
import { isJson, readJson } from './response-body.js';
import { secretClientCores, type PaymentsClient } from './secret-client.js';
import type { Transport } from './transport.js';

/** openapi-fetch's client for the payments API's paths: `{ data, error, response }`, never a throw on an HTTP error. */
export type RawClient = Client<paths>;

/**
 * openapi-fetch's client on the transport of a secret client (its key, headers, idempotency keys, retries, timeout,
 * hooks), for what the grouped methods do not cover. It refuses what the methods refuse: `.` and `..` as path
 * parameters (before sending), and a success answer that is not what the operation returns. An entry point of its
 * own (`@paykit/payments/raw`), so that a client that never uses it does not carry openapi-fetch.
 */
export function createRawClient(client: PaymentsClient): RawClient {
  const core = secretClientCores.get(client);
  // Only a secret client has a raw client: the publishable one's key split cannot be bypassed.
  if (!core) throw configurationError('client', 'be a client made by createSecretClient');
  const raw = createClient<paths>({ baseUrl: core.baseUrl, fetch: transportAsFetch(core.transport) });
  // Operations by method and path template, as openapi-fetch names them.
  const operations = new Map(Object.values(secretKeyOperations as Record<string, OperationSpec>).map((spec) => [`${spec.method} ${spec.path}`, spec]));
  raw.use({
    onRequest({ schemaPath, params }) {
      for (const [name, value] of Object.entries(params.path ?? {})) if (!validSegment(value)) throw pathParameterError(schemaPath, name, value);
    },
    async onResponse({ request, schemaPath, response }) {
      const operation = operations.get(`${request.method} ${schemaPath}`);
      if (operation && response.ok && isJson(request.headers.get('accept') ?? 'application/json')) {
        checkAnswer(operation, request.method, request.url, response.status, await readJson(response.clone()), keyOfAnswer.get(response));
      }
    },
  });
  return raw;
}

/** The Idempotency-Key each raw answer's request was sent with, which the raw client's Request may not show. */
const keyOfAnswer = new WeakMap<Response, string>();

/**
 * The transport as a fetch for openapi-fetch (the raw client). The body is read by the transport, under the call's
 * timeout, so that the timeout covers it as it does for the methods.
 */
function transportAsFetch(transport: Transport): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers: Record<string, string> = { accept: 'application/json', ...Object.fromEntries(request.headers) };
    const body = request.body ? await request.arrayBuffer() : undefined;
    const { response, data, idempotencyKey } = await transport(
      { method: request.method, url: request.url, headers, body, signal: request.signal },
      (answer) => answer.arrayBuffer(),
    );
    // openapi-fetch reads a success with json(), or, without a Content-Length (a chunked answer), with text() and
    // JSON.parse: either throws a SyntaxError at a body that is not JSON. The body is whole here, so its length is
    // given, and json() reads it as the methods do: JSON when it parses, else its text.
    const answerHeaders = new Headers(response.headers);
    answerHeaders.set('content-length', String(data.byteLength));
    const answer = new Response(data.byteLength ? data : null, { status: response.status, statusText: response.statusText, headers: answerHeaders });
    answer.json = () => readJson(answer);
    if (idempotencyKey) keyOfAnswer.set(answer, idempotencyKey);
    return answer;
  };
}
