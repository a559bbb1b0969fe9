// Webhook notifications: signature verification, typed events, receivers for Node's http and the Fetch API, a dedupe
// helper, and signing for tests. They need `node:crypto` (in Cloudflare Workers, the nodejs_compat flag).
export { WebhookVerificationError, type WebhookFailure } from './verification-error.js';
export { WebhookConfigurationError } from './configuration-error.js';
export {
  checkSignatureHeader,
  defaultToleranceMs,
  hmacSha256Scheme,
  parseSignatureHeader,
  signTestPayload,
  verifySignature,
  type ParsedSignature,
  type RawBody,
  type SignatureScheme,
  type VerifyOptions,
} from './signature.js';
export {
  constructWebhookEvent,
  isAliasEventFor,
  isKnownEventType,
  parseWebhookEvent,
  type WebhookEvent,
  type WebhookEventType,
} from './events.js';
export {
  createWebhookReceiver,
  type WebhookHandler,
  type WebhookReceiverOptions,
  type WebhookRequest,
  type WebhookResponse,
} from './receiver.js';
export { createWebhookHandler, type WebhookFetchHandler, type WebhookFetchHandlerOptions, type WebhookHandlerContext } from './fetch-handler.js';
export { defaultMaxBodyBytes, type WebhookDeliveryOptions } from './delivery.js';
export { dedupeEvents, memoryLedger, type EventLedger } from './dedupe.js';
export { webhookEventTypes, webhookSignatureHeader } from '../generated/webhook-events.js';
