// Our declarations use Node's types (streams, Buffer, http). This brings them into a merchant's program from the
// @types/node peer dependency, so that they need no `types` setting (and pnpm's layout hides it otherwise).
/// <reference types="node" preserve="true" />
export { createFileExchangeSoapClient, FileExchangeSoapClient, type CallOptions, type FileExchangeSoapClientOptions } from './client.js';
export { DownloadSession, type DownloadAllOptions, type DownloadStats, type FileIdLedger } from './download-session.js';
export {
  DownloadNotDrainingError,
  FileExchangeSoapError,
  InvalidRequestError,
  RetriesExhaustedError,
  SoapAccessDeniedError,
  SoapClientOptionsError,
  SoapFaultError,
  SoapHttpError,
  SoapNetworkError,
  SoapResponseError,
  SoapTlsError,
  type RequestProblem,
} from './errors.js';
export type { RetryEvent, RetryOptions } from './retry-policy.js';
export { operations, namespace, type OperationMessages, type OperationName } from './generated/contract.js';
export type * from './generated/types.js';
export { referenceRetryPolicy, TlsConfigurationError, type ClientTlsOptions } from '@paykit/file-exchange/core';
