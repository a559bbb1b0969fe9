import type { OperationSpec } from './contract.js';

/**
 * Request fields whose values the contract lists only in part (`x-paykit-open-enum`: `entryMode`, `eci`,
 * `transactionType`): the service takes values the reference does not publish, so the schema lets any string
 * through, and this finds the ones outside the published list so that the sandbox can flag them (OUR assumption
 * `unpublished-request-values`).
 */

const isNode = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface UnpublishedValue {
  field: string;
  value: string;
  published: readonly string[];
}

/** The string values of `body` that the contract's open lists do not publish (empty for any other operation). */
export function unpublishedValues(operation: OperationSpec, body: unknown): UnpublishedValue[] {
  if (!isNode(body)) return [];
  return Object.entries(operation.openValues).flatMap(([field, published]) => {
    const value = body[field];
    return typeof value === 'string' && !published.includes(value) ? [{ field, value, published }] : [];
  });
}

/** One warning per value, as the header and the log line give it: printable ASCII only, so any value fits a header. */
export function describeUnpublished({ field, value, published }: UnpublishedValue): string {
  const shown = JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}...` : value).replace(/[^\x20-\x7e]/g, '?');
  return `${field} ${shown} is not a value the reference publishes (published: ${published.join(', ')})`;
}
