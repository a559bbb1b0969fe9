import type { SandboxSettings } from '../core.js';
import type { Fault, FaultRule, RandomFaults } from './faults.js';
import type { DeliveryAttempt } from '../state/state.js';

/** The typed client of the sandbox's control interface (`/__sandbox/...`), for tests in any process. */

export interface SandboxClock {
  /** The sandbox's time, ISO 8601. */
  now: string;
  /** How far it is ahead of the real clock. */
  offsetMs: number;
}

export interface AliasPayment {
  /** `accepted`: a transaction was made (and `alias.payment.received` posted); `returned`: the amount went back. */
  outcome: 'accepted' | 'returned';
  transaction?: Record<string, unknown> & { receiptNumber: string; status: string };
  reason?: string;
}

export interface WebhookSubscriptionInput {
  /** The merchant's endpoint. */
  url: string;
  /** Default: every event type of the contract. */
  eventTypes?: string[];
  /** The key of the notifications' signatures (`X-Webhook-Signature`). */
  secret: string;
  /** Credentials the notifications carry when the endpoint is protected with Basic authorisation. */
  basicAuth?: { username: string; password: string };
}

export interface WebhookSubscriptionInfo {
  id: string;
  url: string;
  eventTypes: string[];
  basicAuth?: { username: string };
}

export interface WebhookDeliveryInfo {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  url: string;
  /** The notification as sent. */
  body: { id: string; timestamp: string; eventType: string; data: Record<string, unknown> };
  createdAt: number;
  /** True once the endpoint answered 200. */
  delivered: boolean;
  attempts: DeliveryAttempt[];
}

export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SandboxControl {
  /** Forgets everything: tokens, transactions, customers, aliases, keys' idempotency records, subscriptions, faults. */
  reset(): Promise<void>;
  clock(): Promise<SandboxClock>;
  /** Moves the sandbox clock forward (token expiry, idempotency key expiry, alias registration, pending settlement). */
  advanceClock(ms: number): Promise<SandboxClock>;
  settings(): Promise<SandboxSettings>;
  changeSettings(settings: Partial<SandboxSettings>): Promise<SandboxSettings>;
  /** The next `count` API requests (to `operationId`, if given) fail with `fault`. */
  injectFault(fault: Fault, options?: { count?: number; operationId?: string }): Promise<void>;
  /** Each API request fails at random with one of `faults` (see `RandomFaults`). */
  randomFaults(faults: RandomFaults): Promise<void>;
  /** Removes every injected fault and resets the counts. */
  clearFaults(): Promise<void>;
  faults(): Promise<{ pending: FaultRule[]; applied: Record<string, number> }>;
  /** A payer pays `amount` to the alias from their banking app. */
  payAlias(aliasId: string, amount: number): Promise<AliasPayment>;
  /** The cardholder answers a 3D Secure challenge (`transStatus` `C`) with a final outcome. */
  completeChallenge(singleUseTokenId: string, transStatus: string): Promise<void>;
  subscribeWebhooks(subscription: WebhookSubscriptionInput): Promise<WebhookSubscriptionInfo>;
  webhookSubscriptions(): Promise<WebhookSubscriptionInfo[]>;
  unsubscribeWebhooks(id: string): Promise<void>;
  webhookDeliveries(): Promise<WebhookDeliveryInfo[]>;
  /** Every transaction the sandbox holds, as the API shows them. */
  transactions(): Promise<Array<Record<string, unknown> & { receiptNumber: string; status: string }>>;
  /** Answers of the sandbox that did not match the contract (when started with `checkResponses`). */
  contractViolations(): Promise<string[]>;
}

/** A control client for the sandbox at `origin` (`http://127.0.0.1:4012`). */
export function createSandboxControl(origin: string): SandboxControl {
  const base = `${origin.replace(/\/+$/, '')}/__sandbox`;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) throw new SandboxControlError(response.status, (json as { error?: string } | undefined)?.error ?? `${method} ${path}: ${response.status}`);
    return json as T;
  }
  return {
    reset: () => call('POST', '/reset'),
    clock: () => call('GET', '/clock'),
    advanceClock: (ms) => call('POST', '/clock/advance', { ms }),
    settings: () => call('GET', '/settings'),
    changeSettings: (settings) => call('PATCH', '/settings', settings),
    injectFault: (fault, options = {}) => call('POST', '/faults', { fault, ...options }),
    randomFaults: (faults) => call('PUT', '/faults/random', faults),
    clearFaults: () => call('DELETE', '/faults'),
    faults: () => call('GET', '/faults'),
    payAlias: (aliasId, amount) => call('POST', `/aliases/${encodeURIComponent(aliasId)}/payments`, { amount }),
    completeChallenge: (singleUseTokenId, transStatus) => call('POST', `/single-use-tokens/${encodeURIComponent(singleUseTokenId)}/challenge`, { transStatus }),
    subscribeWebhooks: (subscription) => call('POST', '/webhook-subscriptions', subscription),
    webhookSubscriptions: () => call('GET', '/webhook-subscriptions'),
    unsubscribeWebhooks: (id) => call('DELETE', `/webhook-subscriptions/${encodeURIComponent(id)}`),
    webhookDeliveries: () => call('GET', '/webhook-deliveries'),
    transactions: () => call('GET', '/transactions'),
    contractViolations: () => call('GET', '/contract-violations'),
  };
}
