// Webhook notifications (Node): signature verification, typed events, a receiver, and signing for tests.
export { WebhookVerificationError, type WebhookFailure } from './verification-error.js';
export { WebhookConfigurationError } from './configuration-error.js';
export {
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
export { webhookEventTypes, webhookSignatureHeader } from '../generated/webhook-events.js';
