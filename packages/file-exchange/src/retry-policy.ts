// The retry rule is the core's, shared with the SOAP client; these names are the REST package's public ones.
export { referenceRetryPolicy } from './core/rules.js';
export { resolveRetryPolicy, withRetries, type RetryEvent, type RetryPolicy, type RetryOptions as RetryPolicyOptions } from './core/retry.js';
