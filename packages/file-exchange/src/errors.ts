import { FileExchangeError } from './core/errors.js';

// The errors both clients share (one hierarchy, one name per condition) live in the core; the REST client adds only
// the meanings of its own statuses.
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
} from './core/errors.js';

/** The content given to upload cannot be sent (unreadable file, unsupported type, bad content type). */
export class InvalidUploadContentError extends FileExchangeError {
  override name = 'InvalidUploadContentError';
}

/** 400 on upload: the name was already used for a different file. Choose a new name (a daily sequence number). */
export class FileNameAlreadyUsedError extends FileExchangeError {
  override name = 'FileNameAlreadyUsedError';
}

/** 404 on upload: the service does not accept the name. */
export class FileNameNotAcceptedError extends FileExchangeError {
  override name = 'FileNameNotAcceptedError';
}

/** 404 on download or delete: the file is not (or no longer) in the download list. */
export class FileNotInListError extends FileExchangeError {
  override name = 'FileNotInListError';
}

/** 503 on upload: another upload is running for this customer; upload one file at a time. */
export class UploadInProgressError extends FileExchangeError {
  override name = 'UploadInProgressError';
}

/** 429 on download: the file was downloaded more often than the service allows (`fileExchangeRules.downloads`). */
export class DownloadLimitReachedError extends FileExchangeError {
  override name = 'DownloadLimitReachedError';
}
