// The retry rule is the core's, shared with the REST client (including `soapClientFaults`).
export { resolveRetryPolicy, type RetryEvent, type RetryOptions, type RetryPolicy } from '@paykit/file-exchange/core';
