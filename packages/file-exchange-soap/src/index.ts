// Our declarations use Node's types (streams, Buffer, http). This brings them into a merchant's program from the
// @types/node peer dependency, so that they need no `types` setting (and pnpm's layout hides it otherwise).
/// <reference types="node" preserve="true" />
export {
  createFileExchangeSoapClient,
  FileExchangeSoapClient,
  type CallOptions,
  type FileExchangeSoapClientOptions,
  type UploadFileInput,
  type UploadFileOptions,
} from './client.js';
export { DownloadSession, type DownloadAllOptions, type DownloadStats, type FileIdLedger, type SavedFile } from './download-session.js';
export {
  AbortedError,
  AccessRefusedError,
  ClientOptionsError,
  DownloadNotDrainingError,
  FileExchangeError,
  InvalidFileNameError,
  InvalidRequestError,
  isClientFault,
  LocalFileError,
  ProtocolError,
  ProxyRefusedError,
  RetriesExhaustedError,
  SoapFaultError,
  TlsHandshakeError,
  TransientFailureError,
  UnexpectedResponseError,
  type FileExchangeOperation,
  type RequestProblem,
  // Deprecated aliases of the former SOAP-only names.
  FileExchangeSoapError,
  SoapAccessDeniedError,
  SoapClientOptionsError,
  SoapHttpError,
  SoapNetworkError,
  SoapResponseError,
  SoapTlsError,
} from './errors.js';
export type { SoapFault } from './codec/read-response.js';
export type { RetryEvent, RetryOptions } from './retry-policy.js';
export type * from './generated/types.js';
export { isValidFileName, referenceRetryPolicy, TlsConfigurationError, type ClientTlsOptions, type UploadContent } from '@paykit/file-exchange';
