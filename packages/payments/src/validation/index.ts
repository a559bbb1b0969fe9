// Request checks generated from the spec, as their own entry: the publishable (browser) entry stays small without them.
import { publishableKeyValidation, secretKeyValidation } from '../generated/validation.js';
import { createRequestCheck, type RequestCheckOptions } from './request-check.js';

export { createRequestCheck, type RequestCheckOptions } from './request-check.js';
export { checkValue } from './schema-check.js';
export { normaliseAliasAddress, type AliasAddressOptions } from './alias-address.js';

/** The checks of the publishable operations (token creation: card, bank and wallet fields, browser profile). */
export function publishableRequestCheck(options: RequestCheckOptions = {}) {
  return createRequestCheck(publishableKeyValidation, options);
}

/** The checks of the secret operations; the secret client applies them by default. */
export function secretRequestCheck(options: RequestCheckOptions = {}) {
  return createRequestCheck(secretKeyValidation, options);
}
