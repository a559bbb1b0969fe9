import { webhookEventTypes, type WebhookEventBodies } from '../generated/webhook-events.js';
import { rawBytes, verifySignature, type RawBody, type VerifyOptions } from './signature.js';
import { WebhookVerificationError } from './verification-error.js';

export type WebhookEventType = keyof WebhookEventBodies;

/**
 * A notification, discriminated on `eventType`; each `data` type comes from the spec's `webhooks`. `data` is always
 * there (`parseWebhookEvent` refuses a notification without it), so narrowing on `eventType` gives it, not `| undefined`.
 */
export type WebhookEvent = {
  [K in WebhookEventType]: Omit<WebhookEventBodies[K], 'eventType' | 'data'> & { eventType: K; data: NonNullable<WebhookEventBodies[K]['data']> };
}[WebhookEventType];

export function isKnownEventType(value: unknown): value is WebhookEventType {
  return (webhookEventTypes as readonly unknown[]).includes(value);
}

/** The JSON of a verified body. Throws `malformed-body`, or `unknown-event-type` for an event the spec does not describe. */
export function parseWebhookEvent(rawBody: RawBody): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(rawBytes(rawBody)));
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw error;
    throw new WebhookVerificationError('malformed-body', 'The notification body is not JSON.');
  }
  const eventType = (event as { eventType?: unknown } | null)?.eventType;
  if (!event || typeof event !== 'object' || typeof eventType !== 'string') {
    throw new WebhookVerificationError('malformed-body', 'The notification body has no eventType.');
  }
  if (!isKnownEventType(eventType)) {
    throw new WebhookVerificationError('unknown-event-type', `The event type ${JSON.stringify(eventType.slice(0, 100))} is not in the spec.`);
  }
  const { data } = event as { data?: unknown };
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new WebhookVerificationError('malformed-body', 'The notification body has no data object.');
  }
  return event as WebhookEvent;
}

/** Verifies the signature of a raw body, then parses it into a typed event. */
export function constructWebhookEvent(rawBody: RawBody, signatureHeader: string | undefined | null, options: VerifyOptions): WebhookEvent {
  verifySignature(rawBody, signatureHeader, options);
  return parseWebhookEvent(rawBody);
}

/**
 * The reference's receiver checks for alias events: the event is about the alias the merchant created (`data.id` for
 * a registration, `data.aliasAccount.id` for a payment) and has the expected status (`REGISTERED`, or `Approved` for
 * a successful payment).
 */
export function isAliasEventFor(event: WebhookEvent, aliasId: string): boolean {
  switch (event.eventType) {
    case 'alias.registered':
      return event.data.status === 'REGISTERED' && event.data.id === aliasId;
    case 'alias.payment.received':
      return event.data.status === 'Approved' && event.data.aliasAccount?.id === aliasId;
    default:
      return false;
  }
}
