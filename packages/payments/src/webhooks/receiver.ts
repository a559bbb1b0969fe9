import { createDelivery, readCapped, Refusal, type WebhookDeliveryOptions } from './delivery.js';
import type { RawBody } from './signature.js';

export type WebhookReceiverOptions = WebhookDeliveryOptions;

/**
 * What the receiver reads of a request: Node's `IncomingMessage` fits, and so does an Express-style request with the
 * body a framework may have read already. Declared here so that the types need nothing from `@types/node`.
 */
export interface WebhookRequest extends AsyncIterable<Uint8Array | string> {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The raw body as a framework read it (a parsed one is refused: re-serialising JSON changes the signed bytes). */
  readonly body?: unknown;
  readonly rawBody?: unknown;
  /** Whether the body has been read to its end (by a framework's body parser, say). */
  readonly readableEnded?: boolean;
  /** Stops reading a body refused as too large (Node's `IncomingMessage` closes its connection). */
  destroy?(): unknown;
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

/**
 * The raw body: as a framework read it, or read here (at most `maxBytes`). An empty object with the body still unread
 * is what Express's body parsers leave when the Content-Type is not theirs: the body is read here then. Anything else
 * a framework parsed is handed on, to be refused as a parsed body.
 */
function readRawBody(request: WebhookRequest, maxBytes: number): Promise<RawBody> | RawBody {
  const { rawBody, body } = request;
  if (rawBody instanceof Uint8Array || typeof rawBody === 'string') return rawBody;
  if (body instanceof Uint8Array || typeof body === 'string') return body;
  const untouched = body === undefined || (request.readableEnded === false && Object.keys(body as object).length === 0);
  return untouched ? readCapped(request, maxBytes) : (body as RawBody);
}

/** Answers with `status`; resolves once the answer is sent (never, on a connection the peer has closed). */
function answer(response: WebhookResponse, status: number, text = '', headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve) => {
    response.writeHead(status, text ? { 'Content-Type': 'text/plain', ...headers } : headers);
    response.end(text, resolve);
  });
}

/**
 * A handler for Node's `http` server and Express-style frameworks that follows the reference's receiver rules:
 * it refuses what is not authentic (401 for wrong Basic credentials, 400 for a bad signature header, a timestamp out
 * of tolerance or a bad signature; 413 for a body past `maxBodyBytes`), reading no body before the credentials and the
 * signature header have passed; answers 200 at once to what is authentic, and only then hands the event over (or
 * after `onEvent`, with `acknowledge: 'after-event'`). Check the event with `isAliasEventFor` before acting on it.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookHandler {
  const delivery = createDelivery(options);
  return async function receiveWebhook(request, response) {
    let body: RawBody | undefined;
    try {
      const parsed = delivery.checkHeaders((name) => header(request, name));
      try {
        body = await readRawBody(request, delivery.maxBodyBytes);
      } catch (error) {
        if (error instanceof Refusal) throw error;
        throw new Refusal(400, error);
      }
      delivery.checkBody(body, parsed);
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(400, error);
      const text = refusal.status === 400 ? refusal.text || 'The notification could not be read.' : '';
      // A body refused before it was read is not read to its end (a stranger may send gigabytes): the connection goes.
      const unread = body === undefined && !request.readableEnded ? { Connection: 'close' } : undefined;
      // Not waited for: a peer that cut its body off never sees it sent.
      void answer(response, refusal.status, text, { ...(refusal.status === 401 ? { 'WWW-Authenticate': 'Basic' } : {}), ...unread }).then(
        () => unread && request.destroy?.(),
      );
      if (refusal.error !== undefined) delivery.report(refusal.error);
      return;
    }
    body = body!;
    if (!delivery.afterEvent) {
      // The answer goes out first; the event is handled once it has been sent.
      await answer(response, 200);
      return delivery.handOver(body);
    }
    try {
      await delivery.handOver(body);
    } catch (error) {
      void answer(response, 500);
      return delivery.report(error);
    }
    void answer(response, 200);
  };
}
