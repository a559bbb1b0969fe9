// This entry's declarations use Node's types (Buffer, network errors): see src/index.ts.
/// <reference types="node" preserve="true" />
/**
 * The core the REST client (`@paykit/file-exchange`) and the SOAP client (`@paykit/file-exchange-soap`) share, so that
 * both follow the reference the same way with the same options: client-certificate TLS, the base address, the
 * reference's rules and its retry window, one upload at a time, the file name check, the stall timeout, and one error
 * hierarchy: the same condition is the same class in both. Not public (not in this package's `exports`, not packed):
 * the SOAP package's build inlines it from this source (tools/bundle-internal `--from-source`), taking from the main
 * entry every module the main entry exports whole (the error classes above all), and its workspace tests and type
 * checks use the dist/core/index.js and .d.ts this package's build writes. What merchants may use is the main entry's.
 */
export * from './tls/index.js';
export { parseBaseUrl } from './base-url.js';
export {
  AbortedError,
  AccessRefusedError,
  ClientOptionsError,
  FileExchangeError,
  InvalidFileNameError,
  LocalFileError,
  ProtocolError,
  ProxyRefusedError,
  RetriesExhaustedError,
  TlsHandshakeError,
  TransientFailureError,
  UnexpectedResponseError,
  type FileExchangeErrorDetails,
  type FileExchangeOperation,
  type TlsHandshakeFailure,
} from './errors.js';
export { abortedBy } from './abort.js';
export { assertValidFileName, isValidFileName } from './file-name.js';
export { classifyNetworkFailure, refusedCertificateHint, type NetworkFailure, type NetworkFailureKind } from './network-failure.js';
export { resolveRetryPolicy, withRetries, type RetryContext, type RetryEvent, type RetryOptions, type RetryPolicy } from './retry.js';
export { fileExchangeRules, fileNamePattern, isRetriedStatus, referenceRetryPolicy } from './rules.js';
export { SerialQueue } from './serial-queue.js';
export { errorForThrown, localFileError, type FailureContext } from './thrown-error.js';
export { CallSignal, defaultStallTimeoutMs, followSignals, resolveStallTimeout, StallGuard, type CallAbort } from './call-signal.js';
export { HttpsTransport, type TransferRequest } from '../transport/https-transport.js';
export { toReplayableContent, type ContentOptions, type ReplayableContent, type UploadContent } from '../upload-content.js';
export { freeBytes } from '../free-space.js';
