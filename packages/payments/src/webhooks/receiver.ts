import { timingSafeEqual } from 'node:crypto';
import { webhookSignatureHeader } from '../generated/webhook-events.js';
import { parseWebhookEvent, type WebhookEvent } from './events.js';
import { WebhookConfigurationError } from './configuration-error.js';
import { checkVerifyOptions, describeUnusable, verifySignature, type RawBody, type VerifyOptions } from './signature.js';
import { WebhookVerificationError } from './verification-error.js';

const signatureHeader = (webhookSignatureHeader ?? 'X-Webhook-Signature').toLowerCase();

export interface WebhookReceiverOptions extends VerifyOptions {
  /** The Basic credentials the receiving endpoint is protected with, when the subscription sends them. */
  basicAuth?: { username: string; password: string };
  /** Called after the 200 has been sent, with the verified event. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** An authentic notification of a type the spec does not describe (they exist); answered 200 like the others. */
  onUnknownEvent?: (body: unknown) => void | Promise<void>;
  /**
   * A refused notification, or an error thrown (or a promise rejected) by the handlers. Without `onError`, refusals
   * are only answered (400 or 401), and handler errors go to `console.error`: the 200 has been sent, so the service
   * will not deliver that event again, and a silent failure would lose it.
   */
  onError?: (error: unknown) => void;
}

/**
 * What the receiver reads of a request: Node's `IncomingMessage` fits, and so does an Express-style request with the
 * body a framework may have read already. Declared here so that the types need nothing from `@types/node`.
 */
export interface WebhookRequest extends AsyncIterable<Uint8Array | string> {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The raw body as a framework read it (a parsed one is refused: re-serialising JSON changes the signed bytes). */
  readonly body?: unknown;
  readonly rawBody?: unknown;
}

/** What the receiver writes of a response: Node's `ServerResponse` fits. */
export interface WebhookResponse {
  writeHead(statusCode: number, headers?: Record<string, string>): unknown;
  end(callback?: () => void): unknown;
  end(chunk: string, callback?: () => void): unknown;
}

/** The receiver: give it to `http.createServer`, or mount it as an Express-style handler. */
export type WebhookHandler = (request: WebhookRequest, response: WebhookResponse) => Promise<void>;

function header(request: WebhookRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses credentials anybody could send: a missing, empty or blank password or user name (RFC 7617: no colon in it). */
function checkBasicAuth(credentials: WebhookReceiverOptions['basicAuth']): void {
  const { username, password } = (credentials ?? {}) as { username?: unknown; password?: unknown };
  if (typeof password !== 'string' || password.trim() === '') {
    throw new WebhookConfigurationError('basicAuth.password', `basicAuth.password must be a non-empty string, got ${describeUnusable(password)}.`);
  }
  if (typeof username !== 'string' || username.trim() === '' || username.includes(':')) {
    throw new WebhookConfigurationError('basicAuth.username', 'basicAuth.username must be a non-empty string without ":".');
  }
}

function authorised(header: string | undefined, credentials: WebhookReceiverOptions['basicAuth']): boolean {
  if (!credentials) return true;
  const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  return typeof header === 'string' && sameText(header, expected);
}

async function readRawBody(request: WebhookRequest): Promise<RawBody> {
  if (request.rawBody instanceof Uint8Array || typeof request.rawBody === 'string') return request.rawBody;
  if (request.body instanceof Uint8Array || typeof request.body === 'string') return request.body;
  if (request.body !== undefined) return request.body as RawBody; // refused by the verification with `parsed-body`
  const chunks: Uint8Array[] = [];
  for await (const chunk of request) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Logs what nobody else was given: a handler's failure without `onError`, or `onError`'s own failure. */
function logLost(error: unknown): void {
  console.error('@paykit/payments webhook receiver: an error was not handled by onError (none was given, or it failed):', error);
}

/**
 * A handler for Node's `http` server and Express-style frameworks that follows the reference's receiver rules:
 * it refuses what is not authentic (401 for wrong Basic credentials, 400 for a bad signature), answers 200 at once
 * to what is, and only then hands the event over. Check the event with `isAliasEventFor` before acting on it.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookHandler {
  // Refused now rather than on the first notification: a receiver that cannot verify must not start.
  checkVerifyOptions(options);
  if (options.basicAuth !== undefined) checkBasicAuth(options.basicAuth);
  if (typeof options.onEvent !== 'function') throw new WebhookConfigurationError('onEvent', 'onEvent must be a function.');
  const { onError } = options;
  // An onError that throws or rejects is logged, never left as an unhandled rejection that would stop the server.
  const report = (error: unknown) => {
    try {
      void Promise.resolve(onError?.(error)).catch(logLost);
    } catch (thrown) {
      logLost(thrown);
    }
  };
  const reportHandlerError = onError ? report : logLost;
  return async function receiveWebhook(request, response) {
    if (!authorised(header(request, 'authorization'), options.basicAuth)) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic' });
      response.end();
      return;
    }
    let body: RawBody;
    try {
      body = await readRawBody(request);
      verifySignature(body, header(request, signatureHeader), options);
    } catch (error) {
      const message = error instanceof WebhookVerificationError ? error.message : 'The notification could not be read.';
      response.writeHead(400, { 'Content-Type': 'text/plain' });
      response.end(message);
      report(error);
      return;
    }
    // The answer goes out first; the event is handled once it has been sent.
    await new Promise<void>((resolve) => {
      response.writeHead(200);
      response.end(() => resolve());
    });
    try {
      await options.onEvent(parseWebhookEvent(body));
    } catch (error) {
      const unknownType = error instanceof WebhookVerificationError && error.reason === 'unknown-event-type';
      if (!unknownType || !options.onUnknownEvent) return reportHandlerError(error);
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      await Promise.resolve()
        .then(() => options.onUnknownEvent!(JSON.parse(text)))
        .catch(reportHandlerError);
    }
  };
}
