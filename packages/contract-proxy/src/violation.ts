/** Which way a message was going when it broke the contract. */
export type Side = 'request' | 'answer';

/** One place where a request or an answer breaks the contract. Values are never copied in: they may be secrets. */
export interface Violation {
  /** The rule broken: `openapi:<code>` for Prism's schema checks (`openapi:required`, `openapi:enum`...), or one of `ruleNames`. */
  rule: string;
  side: Side;
  /** The operationId, or `METHOD /path` when the contract has no such operation. */
  operation: string;
  /** Where, e.g. `body.amount`, `header.Idempotency-Key`, `status`. */
  location: string;
  message: string;
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
  errorBody: 'error-body',
} as const;

/** The live line of one violation, e.g. `[answer] openapi:required getTransaction body.status: must have ...`. */
export function formatViolation(violation: Violation): string {
  return `[${violation.side}] ${violation.rule} ${violation.operation} ${violation.location || '(message)'}: ${violation.message}`;
}
