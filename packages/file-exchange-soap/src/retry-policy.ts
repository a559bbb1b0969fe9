// The retry rule is the core's, shared with the REST client (including `soapClientFaults`): these are the REST
// package's public types (its RetryPolicyOptions is this package's RetryOptions); the client resolves them with the
// core's resolveRetryPolicy, which is plumbing, bundled in (not public in either package).
export type { RetryEvent, RetryPolicy, RetryPolicyOptions as RetryOptions } from '@paykit/file-exchange';
