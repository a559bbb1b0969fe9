// Our declarations use Node's types (streams, Buffer) and undici's, which need them. This brings them into a
// merchant's program from the @types/node peer dependency, so that they need no `types` setting (and pnpm's layout
// hides it otherwise).
/// <reference types="node" preserve="true" />
export * from './core/tls/index.js';
export {
  createFileExchangeClient,
  FileExchangeClient,
  type DownloadedFile,
  type FileExchangeClientOptions,
  type ListOptions,
  type UploadOptions,
} from './client.js';
export * from './errors.js';
export { type FileListFormat, maxListBodyBytes, parsePlainFileList, parseXmlFileList } from './file-list.js';
export { assertValidFileName, fileNamePattern, isValidFileName } from './core/file-name.js';
export { defaultLedgerPath, defaultLedgerPathFor, FileLedger, type FileLedgerOptions, type LocalFailure, type ProcessedFileLedger } from './ledger.js';
export {
  processAll,
  type DownloadQueue,
  type FileHandler,
  type FileOutcome,
  type ProcessAllOptions,
  type ProcessAllReport,
  type ReceivedFile,
} from './process-all.js';
export type { CallOptions, TransferOptions, TransferProgress } from './transfer-options.js';
export { referenceRetryPolicy, type RetryEvent, type RetryPolicy, type RetryPolicyOptions } from './retry-policy.js';
export type { UploadContent } from './upload-content.js';
export type { components, operations, paths } from './generated/openapi.js';
