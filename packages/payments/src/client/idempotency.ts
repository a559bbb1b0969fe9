import { inputError } from '../errors/payments-error.js';
import { idempotencyKeyRule } from '../generated/operations.js';

/** The header name and limits of idempotency keys, from the spec's `Idempotency-Key` parameter. */
export const idempotencyHeader: string | undefined = idempotencyKeyRule?.header;

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Refuses a caller's key that the service would refuse (400) or that could not travel in a header. */
export function checkIdempotencyKey(key: unknown): string {
  const rule = idempotencyKeyRule;
  const problems: string[] = [];
  if (typeof key !== 'string') problems.push('must be a string');
  else {
    // A header value must be printable ASCII, and HTTP trims outer spaces (the key would change in transit).
    if (!/^[\x20-\x7e]*$/.test(key)) problems.push('must hold only printable ASCII characters');
    else if (key.trim() !== key) problems.push('must not start or end with a space');
    if (rule?.maxLength !== undefined && key.length > rule.maxLength) problems.push(`must be at most ${rule.maxLength} characters`);
    if (key.length < Math.max(1, rule?.minLength ?? 1)) problems.push('must not be empty');
    if (rule?.pattern !== undefined && !new RegExp(rule.pattern, 'u').test(key)) problems.push(`must match ${rule.pattern}`);
  }
  if (problems.length) {
    const fieldName = idempotencyHeader ?? 'Idempotency-Key';
    throw inputError(`The ${fieldName} ${problems.join(', ')}.`, [
      { fieldName, fieldValue: typeof key === 'string' ? key : String(key), messages: problems },
    ]);
  }
  return key as string;
}

/**
 * The key of a call to an idempotent operation: the `idempotencyKey` option, or an `Idempotency-Key` the caller put in
 * `headers` (any case), or else a new one. Two different keys are refused rather than one silently dropped.
 */
export function callIdempotencyKey(option: string | undefined, headers: readonly (readonly [string, string])[] | undefined): string {
  const name = idempotencyHeader!;
  let given = option;
  for (const [header, value] of headers ?? []) {
    if (header.toLowerCase() !== name.toLowerCase()) continue;
    if (given !== undefined && value !== given) {
      throw inputError(`Two different ${name} values were given (idempotencyKey, headers): pass the key once.`, [
        { fieldName: name, fieldValue: value, messages: ['differs from another key given for the call'] },
      ]);
    }
    given = value;
  }
  return given === undefined ? newIdempotencyKey() : checkIdempotencyKey(given);
}
