/** Which way a message was going when it broke the contract. */
export type Side = 'request' | 'answer';

/** One place where a request or an answer breaks the contract. Values are never copied in: they may be secrets. */
export interface Violation {
  /**
   * The rule broken: `openapi:<keyword>` for the contract's schemas and OpenAPI facts (`openapi:required`,
   * `openapi:pattern`, `openapi:status`, `openapi:security`...), or one of `ruleNames` for the `x-paykit-*` rules.
   */
  rule: string;
  side: Side;
  /** The operationId, or `METHOD /path` when the contract has no such operation. */
  operation: string;
  /** Where, e.g. `body.amount`, `header.Idempotency-Key`, `status`. */
  location: string;
  message: string;
  /**
   * Where the rule comes from: a JSON pointer into the bundled contract (`#/components/schemas/Transaction/required`)
   * or an `x-paykit-rules` entry (`x-paykit-rules.retry`).
   */
  source: string;
  /** The number of the exchange it was found in (1 for the first the proxy saw): its HAR entry's `_paykitExchange`. */
  exchange: number;
}

/** Our rules on top of the OpenAPI schemas, from the spec's `x-paykit-*` extensions (see request-rules.ts). */
export const ruleNames = {
  idempotencyKey: 'idempotency-key',
  accept: 'accept',
  keyType: 'key-type',
  secretKeyFromBrowser: 'secret-key-from-browser',
  decimalPlaces: 'decimal-places',
  retryWait: 'retry-wait',
  resendAfterUnknownOutcome: 'resend-after-500',
  queryStateFirst: 'query-state-first',
  concurrency: 'concurrency',
  expiredToken: 'single-use-token-expired',
  errorBody: 'error-body',
  unknownOperation: 'openapi:operation',
} as const;

/** The live line of one violation, e.g. `[answer] openapi:required getTransaction body.status: is required`. */
export function formatViolation(violation: Pick<Violation, 'side' | 'rule' | 'operation' | 'location' | 'message'>): string {
  return `[${violation.side}] ${violation.rule} ${violation.operation} ${violation.location || '(message)'}: ${violation.message}`;
}
