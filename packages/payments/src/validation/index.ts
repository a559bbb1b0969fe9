// `@paykit/payments/validation`: the publishable client's opt-in request checks, generated from the spec, as an entry
// of their own so that the publishable (browser) entry stays small without them. The secret client applies its own
// checks by default (its `check` and `aliasDomains` options); the interpreter and its data are not public.
import { publishableKeyValidation } from '../generated/validation.js';
import { createRequestCheck, type RequestCheckOptions } from './request-check.js';

export type { RequestCheckOptions } from './request-check.js';

/** The checks of the publishable operations (token creation: card, bank and wallet fields, browser profile). */
export function publishableRequestCheck(options: RequestCheckOptions = {}) {
  return createRequestCheck(publishableKeyValidation, options);
}
