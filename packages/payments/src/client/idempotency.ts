import { inputError } from '../errors/payments-error.js';
// The header name and limits of idempotency keys, from the spec's `Idempotency-Key` parameter: idempotencyKeyRule's
// values, each a constant of its own, which a bundle inlines (it would carry the rule's object whole).
import { idempotencyKeyHeader, idempotencyKeyMaxLength, idempotencyKeyMinLength, idempotencyKeyPattern } from '../generated/operations.js';

/** The idempotency header's name; undefined when the spec gives none. */
export { idempotencyKeyHeader as idempotencyHeader };

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Refuses a caller's key that the service would refuse (400) or that could not travel in a header: one that breaks
 * the spec's rule for the header (its length and pattern), or that HTTP would change in transit (outer spaces trimmed).
 */
export function checkIdempotencyKey(key: unknown): string {
  const minLength = idempotencyKeyMinLength ?? 1;
  const maxLength = idempotencyKeyMaxLength ?? Infinity;
  const pattern = idempotencyKeyPattern;
  const length = (key as string)?.length;
  if (
    typeof key !== 'string' ||
    key.trim() !== key ||
    !/^[\x20-\x7e]*$/.test(key) ||
    length < Math.max(1, minLength) ||
    length > maxLength ||
    (pattern !== undefined && !new RegExp(pattern, 'u').test(key))
  ) {
    throw keyError(String(key), `must be ${minLength} to ${maxLength} printable ASCII characters, without a space at either end`);
  }
  return key;
}

function keyError(fieldValue: string, problem: string) {
  const fieldName = idempotencyKeyHeader ?? 'idempotencyKey'; // without the spec's rule, the option is all there is to name
  return inputError(`The ${fieldName} ${problem}.`, [{ fieldName, fieldValue, messages: [problem] }]);
}

/**
 * The key of a call to an idempotent operation: the `idempotencyKey` option, or an `Idempotency-Key` the caller put in
 * `headers` (any case), or else a new one. Two different keys are refused rather than one silently dropped.
 */
export function callIdempotencyKey(option: string | undefined, headers: readonly (readonly [string, string])[] | undefined): string {
  const name = idempotencyKeyHeader!;
  let given = option;
  for (const [header, value] of headers ?? []) {
    if (header.toLowerCase() !== name.toLowerCase()) continue;
    if (given !== undefined && value !== given) throw keyError(value, 'differs from the idempotencyKey given: pass the key once');
    given = value;
  }
  return given === undefined ? newIdempotencyKey() : checkIdempotencyKey(given);
}
