import { timingSafeEqual } from 'node:crypto';
import { webhookSignatureHeader } from '../generated/webhook-events.js';
import { parseWebhookEvent, type WebhookEvent } from './events.js';
import { WebhookConfigurationError } from './configuration-error.js';
import { checkSignatureHeader, checkSignedBody, checkVerifyOptions, describeUnusable, type ParsedSignature, type RawBody, type VerifyOptions } from './signature.js';
import { WebhookVerificationError } from './verification-error.js';

// What the two receivers (Node's http and the Fetch API) share: the checks of a delivery, in the order that reads the
// least of what a stranger sends (the credentials and the signature header's form and timestamp before the body, the
// body only up to a cap), and the hand-over of the event.

/** The signature header's name, lower-cased as Node and the Fetch API's `Headers` look it up. */
export const signatureHeader = (webhookSignatureHeader ?? 'X-Webhook-Signature').toLowerCase();

/**
 * The largest notification body a receiver reads by default: 1 MiB. A real notification is a few kilobytes (an alias
 * or a transaction and four fields around it); a body larger than this is refused with 413 as soon as it is known to
 * be (its Content-Length, or the bytes read so far), so that nobody can make the receiver hold an unbounded body.
 */
export const defaultMaxBodyBytes = 1_048_576;

export interface WebhookDeliveryOptions extends VerifyOptions {
  /** The Basic credentials the receiving endpoint is protected with, when the subscription sends them. */
  basicAuth?: { username: string; password: string };
  /** Called with the verified event: after the 200 has been sent, unless `acknowledge` is `'after-event'`. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** An authentic notification of a type the spec does not describe (they exist); answered 200 like the others. */
  onUnknownEvent?: (body: unknown) => void | Promise<void>;
  /**
   * A refused notification, or an error thrown (or a promise rejected) by the handlers after the 200. Without
   * `onError`, refusals are only answered (400, 401, 413), and handler errors go to `console.error`: the 200 has
   * been sent, so the service will not deliver that event again, and a silent failure would lose it.
   */
  onError?: (error: unknown) => void;
  /** The largest body read, in bytes; a larger one is refused with 413 (default `defaultMaxBodyBytes`, 1 MiB). */
  maxBodyBytes?: number;
  /**
   * When the 200 goes out. `'on-receipt'` (the default, the reference's first receiver rule): as soon as the
   * notification is verified, before `onEvent` runs. `'after-event'`: once `onEvent` has finished (stored the event,
   * say); if it throws, the answer is 500 and the service may deliver the notification again (OUR assumption, see
   * the webhook-redelivery assumption of the contract), so make `onEvent` safe to run twice (`dedupeEvents`).
   */
  acknowledge?: 'on-receipt' | 'after-event';
}

/** A notification refused before it is handed over: the status to answer, and why (the error, for `onError`). */
export class Refusal {
  constructor(
    readonly status: 400 | 401 | 413,
    readonly error: unknown,
  ) {}

  /** The answer's text: a verification's reason (never a secret), nothing for the others. */
  get text(): string {
    return this.error instanceof WebhookVerificationError ? this.error.message : '';
  }
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses credentials anybody could send: a missing, empty or blank password or user name (RFC 7617: no colon in it). */
function checkBasicAuth(credentials: WebhookDeliveryOptions['basicAuth']): void {
  const { username, password } = (credentials ?? {}) as { username?: unknown; password?: unknown };
  if (typeof password !== 'string' || password.trim() === '') {
    throw new WebhookConfigurationError('basicAuth.password', `basicAuth.password must be a non-empty string, got ${describeUnusable(password)}.`);
  }
  if (typeof username !== 'string' || username.trim() === '' || username.includes(':')) {
    throw new WebhookConfigurationError('basicAuth.username', 'basicAuth.username must be a non-empty string without ":".');
  }
}

/** Logs what nobody else was given: a handler's failure without `onError`, or `onError`'s own failure. */
function logLost(error: unknown): void {
  console.error('@paykit/payments webhook receiver: an error was not handled by onError (none was given, or it failed):', error);
}

/** A delivery's checks and hand-over, made once per receiver from its options (checked then). */
export interface Delivery {
  readonly maxBodyBytes: number;
  readonly afterEvent: boolean;
  /** The checks made before the body is read; throws a Refusal. `header` reads a request header by lower-case name. */
  checkHeaders(header: (name: string) => string | null | undefined): ParsedSignature;
  /** The signature of the body read; throws a Refusal. */
  checkBody(body: RawBody, parsed: ParsedSignature): void;
  /** Hands the event over; rejects only in `'after-event'` mode (the answer is then 500), else reports the failure. */
  handOver(body: RawBody): Promise<void>;
  /** Gives a refusal or a failure to `onError` (an `onError` that fails is logged). */
  report(error: unknown): void;
}

export function createDelivery(options: WebhookDeliveryOptions): Delivery {
  // Refused now rather than on the first notification: a receiver that cannot verify must not start.
  checkVerifyOptions(options);
  const { basicAuth, onError, maxBodyBytes = defaultMaxBodyBytes, acknowledge = 'on-receipt' } = options;
  if (basicAuth !== undefined) checkBasicAuth(basicAuth);
  if (typeof options.onEvent !== 'function') throw new WebhookConfigurationError('onEvent', 'onEvent must be a function.');
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) throw new WebhookConfigurationError('maxBodyBytes', 'maxBodyBytes must be a whole number of bytes, 1 or more.');
  if (acknowledge !== 'on-receipt' && acknowledge !== 'after-event') {
    throw new WebhookConfigurationError('acknowledge', "acknowledge must be 'on-receipt' or 'after-event'.");
  }
  const expectedAuthorization = basicAuth && `Basic ${Buffer.from(`${basicAuth.username}:${basicAuth.password}`).toString('base64')}`;
  const afterEvent = acknowledge === 'after-event';
  // An onError that throws or rejects is logged, never left as an unhandled rejection that would stop the server.
  const report = (error: unknown) => {
    try {
      void Promise.resolve(onError?.(error)).catch(logLost);
    } catch (thrown) {
      logLost(thrown);
    }
  };
  const reportHandlerError = onError ? report : logLost;
  const refuse = (status: 400 | 401 | 413, check: () => void) => {
    try {
      check();
    } catch (error) {
      throw new Refusal(status, error);
    }
  };
  return {
    maxBodyBytes,
    afterEvent,
    checkHeaders(header) {
      const authorization = header('authorization');
      if (expectedAuthorization && !(typeof authorization === 'string' && sameText(authorization, expectedAuthorization))) throw new Refusal(401, undefined);
      let parsed!: ParsedSignature;
      refuse(400, () => (parsed = checkSignatureHeader(header(signatureHeader), options)));
      const length = Number(header('content-length') ?? 0);
      if (length > maxBodyBytes) throw new Refusal(413, undefined);
      return parsed;
    },
    checkBody(body, parsed) {
      refuse(400, () => checkSignedBody(body, parsed, options));
    },
    async handOver(body) {
      try {
        await options.onEvent(parseWebhookEvent(body));
      } catch (error) {
        const unknownType = error instanceof WebhookVerificationError && error.reason === 'unknown-event-type';
        if (unknownType && options.onUnknownEvent) {
          const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
          try {
            return await options.onUnknownEvent(JSON.parse(text));
          } catch (failed) {
            error = failed;
          }
        }
        if (afterEvent) throw error;
        reportHandlerError(error);
      }
    },
    report,
  };
}

/**
 * Reads a body of at most `maxBytes` from its chunks, and stops reading (throws a Refusal with 413) at the first chunk
 * that goes past it: at most one chunk more than the cap is ever held.
 */
export async function readCapped(chunks: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    length += bytes.length;
    if (length > maxBytes) throw new Refusal(413, undefined);
    parts.push(bytes);
  }
  return Buffer.concat(parts, length);
}
