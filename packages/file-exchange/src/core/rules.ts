import { fileNamePattern, rules } from '../generated/rules.js';

/** The reference's rules for both interfaces (REST and SOAP), generated from `x-paykit-rules` of the REST contract. */
export { fileNamePattern, rules as fileExchangeRules };

/** The reference's retry rule as retry options: the least wait between tries and the window for all of them. */
export const referenceRetryPolicy = { intervalMs: rules.retry.minimumWaitMs, maxDurationMs: rules.retry.windowMs } as const;

/** Whether the reference asks a client to retry after this HTTP status (network errors are retried as well). */
export function isRetriedStatus(status: number): boolean {
  return (rules.retry.statuses as readonly number[]).includes(status);
}
