import type { OpenApiDocument } from '../openapi/document.js';
import { readRules, type Rules } from './read-rules.js';

/** The reference's payments rules that OpenAPI has no keyword for, as `x-paykit-rules` in specs/payments. */
export const paymentsRuleShapes = {
  /** Client rule 1: what is resent, after how long, how often by default. */
  retry: { statuses: 'statuses', networkErrors: 'boolean', wait: 'duration', maxRetries: 'count', sameIdempotencyKey: 'boolean' },
  /** Statuses after which the request must not be sent again (part of the work may be done). */
  mustNotResend: { statuses: 'statuses' },
  /** Statuses whose outcome is unknown: the caller queries the resource before doing anything else. */
  mustQueryState: { statuses: 'statuses' },
  /** How long the service remembers an Idempotency-Key (its length is the header's schema). */
  idempotencyKey: { lifetime: 'duration' },
  /** Requests in flight beyond which the service may answer 429. */
  concurrency: { maxInFlight: 'count' },
  /** Single-use token lifetime and the quota of unused tokens (per facility and per IP address). */
  singleUseTokens: { lifetime: 'duration', unusedQuota: 'count' },
  /**
   * How a transaction's open `status` reads: the values the reference names as approved, as pending and as declined.
   * A status in none of the lists is no known outcome.
   */
  transactionStatus: { approved: 'values', pending: 'values', declined: 'values' },
  /** Items per list page. */
  pagination: { pageSize: 'count' },
  /** How many transactions the recent list holds. */
  recentTransactions: { count: 'count' },
  /** Secret key lifetime. */
  secretKeys: { lifetime: 'duration' },
  /** How far back the payment file list reaches. */
  paymentFiles: { listWindow: 'duration' },
} as const;

export type PaymentsRules = Rules<typeof paymentsRuleShapes>;

export function readPaymentsRules(document: OpenApiDocument): PaymentsRules {
  return readRules(document, paymentsRuleShapes, 'payments');
}
