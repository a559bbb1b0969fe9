// Our declarations use Node's types (http, Buffer). This brings them into a merchant's program from the @types/node
// peer dependency, so that they need no `types` setting (and pnpm's layout hides it otherwise).
/// <reference types="node" preserve="true" />
export { startPaymentsSandbox, type PaymentsSandbox, type PaymentsSandboxOptions } from './sandbox.js';
export type { SandboxKeyOptions, SecretKeyOptions } from './http/auth.js';
export type { SandboxBusiness, SandboxSettings } from './handler-context.js';
export type { Fault, FaultRule, FaultTiming, RandomFaults } from './http/faults.js';
export { controlPrefix } from './http/control.js';
export {
  createSandboxControl,
  SandboxControlError,
  type AliasPayment,
  type SandboxClock,
  type SandboxControl,
  type SandboxControlOptions,
  type SandboxControlSchemas,
  type SandboxEvent,
  type WebhookDeliveryInfo,
  type WebhookSubscriptionInfo,
  type WebhookSubscriptionInput,
} from './http/control-client.js';
export { paymentOutcomeCents, threeDSOutcomeByCard, defaultThreeDSOutcome, debitCards, rejectedAliasPrefix } from './rules/conventions.js';
