/** The operations of the REST interface, as named by its contract. */
export type FileExchangeOperation = 'uploadFile' | 'listFilesForDownload' | 'downloadFile' | 'deleteFile';

/** Every error this package raises about the service (TLS setup problems are TlsConfigurationError). */
export class FileExchangeError extends Error {
  override name = 'FileExchangeError';
  readonly operation: FileExchangeOperation | undefined;
  readonly fileName: string | undefined;
  /** HTTP status, when the service answered. */
  readonly status: number | undefined;

  constructor(
    message: string,
    details: { operation?: FileExchangeOperation; fileName?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.operation = details.operation;
    this.fileName = details.fileName;
    this.status = details.status;
  }
}

/** The client's own options are wrong (base address, retry settings): raised by `create`, before any request. */
export class ClientOptionsError extends FileExchangeError {
  override name = 'ClientOptionsError';
}

/** The name breaks the service's naming rule; raised before anything is sent. */
export class InvalidFileNameError extends FileExchangeError {
  override name = 'InvalidFileNameError';
  constructor(fileName: string, rule: string) {
    super(`Invalid file name ${JSON.stringify(fileName)}: ${rule}.`, { fileName });
  }
}

/** The content given to upload cannot be sent (unreadable file, unsupported type, bad content type). */
export class InvalidUploadContentError extends FileExchangeError {
  override name = 'InvalidUploadContentError';
}

/** 400 on upload: the name was already used for a different file. Choose a new name (a daily sequence number). */
export class FileNameAlreadyUsedError extends FileExchangeError {
  override name = 'FileNameAlreadyUsedError';
}

/** 403: the certificate or the caller's IP address is not accepted. */
export class AccessRefusedError extends FileExchangeError {
  override name = 'AccessRefusedError';
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

/** The TLS handshake failed: the server refused the client certificate, or the server's certificate is not trusted. */
export class TlsHandshakeError extends FileExchangeError {
  override name = 'TlsHandshakeError';
}

/** The HTTP proxy refused the tunnel (407 or 403): check the proxy address and its credentials. */
export class ProxyRefusedError extends FileExchangeError {
  override name = 'ProxyRefusedError';
}

/** A status the contract does not give this operation, or one with no specific meaning (e.g. 404 on the list). */
export class UnexpectedResponseError extends FileExchangeError {
  override name = 'UnexpectedResponseError';
}

/**
 * A file of this machine failed (a full disk, a name too long for the file system, no permission): retrying the
 * request cannot help, and each download retried would spend one of the downloads the service allows per file.
 */
export class LocalFileError extends FileExchangeError {
  override name = 'LocalFileError';
  /** The system's code, e.g. `ENOSPC`, `ENAMETOOLONG`, `EACCES`. */
  readonly code: string | undefined;
  readonly path: string | undefined;
  constructor(message: string, details: { operation?: FileExchangeOperation; fileName?: string; code?: string; path?: string; cause?: unknown }) {
    super(message, details);
    this.code = details.code;
    this.path = details.path;
  }
}

/** A network error or a 500, before any retry decision. */
export class TransientFailureError extends FileExchangeError {
  override name = 'TransientFailureError';
}

/** Network errors or 500s went on past the retry window (the reference's by default): investigate by hand. */
export class RetriesExhaustedError extends FileExchangeError {
  override name = 'RetriesExhaustedError';
  readonly attempts: number;
  constructor(
    message: string,
    details: { operation: FileExchangeOperation; fileName?: string; attempts: number; lastFailure: TransientFailureError },
  ) {
    super(message, {
      operation: details.operation,
      ...(details.fileName === undefined ? {} : { fileName: details.fileName }),
      ...(details.lastFailure.status === undefined ? {} : { status: details.lastFailure.status }),
      cause: details.lastFailure,
    });
    this.attempts = details.attempts;
  }
}
