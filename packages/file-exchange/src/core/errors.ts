/**
 * The one error hierarchy of both file exchange clients (REST `@paykit/file-exchange` and SOAP
 * `@paykit/file-exchange-soap`): the same condition is the same class, with the same `retryable`, whichever
 * interface met it. Each package adds only the errors of its own contract (REST statuses, SOAP faults).
 * Classes and types only, every one exported by `@paykit/file-exchange`: the SOAP package's build sends this module to
 * that import (tools/bundle-internal `--from-source`), so a helper added here would fail its build; helpers go to
 * abort.ts.
 */

/** The operations of both contracts, and the two loops that drain a queue. */
export type FileExchangeOperation =
  | 'uploadFile'
  | 'listFilesForDownload'
  | 'downloadFile'
  | 'deleteFile'
  | 'downloadFiles'
  | 'processAll'
  | 'downloadAll';

export interface FileExchangeErrorDetails {
  operation?: FileExchangeOperation | undefined;
  fileName?: string | undefined;
  status?: number | undefined;
  retryable?: boolean;
  cause?: unknown;
}

/** Every error either client raises about the service or a call (TLS set-up problems are TlsConfigurationError). */
export class FileExchangeError extends Error {
  override name = 'FileExchangeError';
  readonly operation: FileExchangeOperation | undefined;
  readonly fileName: string | undefined;
  /** HTTP status, when the service (or a proxy) answered. */
  readonly status: number | undefined;
  /** Whether the reference's retry rule applies (a network error or a 500): the retry loop of both clients reads it. */
  readonly retryable: boolean;
  /**
   * Set by the REST `upload` of a stream given `keepUnsent`, when the stream had been read to its end: the file that
   * holds its bytes, kept so that they can be sent again (`upload(name, unsentContentPath)`); its folder is then
   * yours to remove. Undefined otherwise.
   */
  unsentContentPath: string | undefined;

  constructor(message: string, details: FileExchangeErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.operation = details.operation;
    this.fileName = details.fileName;
    this.status = details.status;
    this.retryable = details.retryable ?? false;
  }
}

/** The client's own options are wrong (base address, retry or timeout settings): raised before any request. */
export class ClientOptionsError extends FileExchangeError {
  override name = 'ClientOptionsError';
}

/** The name breaks the service's naming rule: raised before anything is sent, or before a received name is used. */
export class InvalidFileNameError extends FileExchangeError {
  override name = 'InvalidFileNameError';
  constructor(fileName: string, rule: string, details: Omit<FileExchangeErrorDetails, 'fileName'> = {}) {
    super(`Invalid file name ${JSON.stringify(fileName)}: ${rule}.`, { ...details, fileName });
  }
}

/** HTTP 403: the certificate or the caller's IP address is not accepted. */
export class AccessRefusedError extends FileExchangeError {
  override name = 'AccessRefusedError';
}

/** Why a TLS handshake failed: the server said no, we did not trust the server, or something else in TLS. */
export type TlsHandshakeFailure = 'client-certificate-refused' | 'server-certificate-untrusted' | 'tls';

/** The TLS handshake failed: the server refused the client certificate, or the server's certificate is not trusted. */
export class TlsHandshakeError extends FileExchangeError {
  override name = 'TlsHandshakeError';
  readonly reason: TlsHandshakeFailure;
  /** OpenSSL's or Node's code, e.g. `CERT_HAS_EXPIRED`. */
  readonly code: string | undefined;
  constructor(message: string, details: FileExchangeErrorDetails & { reason: TlsHandshakeFailure; code?: string | undefined }) {
    super(message, details);
    this.reason = details.reason;
    this.code = details.code;
  }
}

/** The HTTP proxy refused the tunnel (407 or 403): check the proxy address and its credentials. */
export class ProxyRefusedError extends FileExchangeError {
  override name = 'ProxyRefusedError';
  readonly proxyStatus: number;
  constructor(message: string, details: FileExchangeErrorDetails & { proxyStatus: number }) {
    super(message, details);
    this.proxyStatus = details.proxyStatus;
  }
}

/**
 * A network error (refused, reset, cut short, stalled) or an HTTP 500: what the reference says to retry. The retry
 * loop retries it until its window closes, then wraps the last one in RetriesExhaustedError.
 */
export class TransientFailureError extends FileExchangeError {
  override name = 'TransientFailureError';
  /** For a network error: the most specific code found (`ECONNRESET`, `ETIMEDOUT` for a stall...). */
  readonly code: string | undefined;
  /**
   * The request went out on a connection kept open since an earlier one, and that connection was closed before a
   * byte of the answer came (the server closed it while idle): the retry loop tries again at once, on a new
   * connection, instead of after the retry wait.
   */
  readonly staleConnection: boolean;
  constructor(message: string, details: Omit<FileExchangeErrorDetails, 'retryable'> & { code?: string | undefined; staleConnection?: boolean } = {}) {
    super(message, { ...details, retryable: true });
    this.code = details.code;
    this.staleConnection = details.staleConnection ?? false;
  }
}

/** A status the contract does not give the operation (a proxy's 502, 404 for a wrong base address). */
export class UnexpectedResponseError extends FileExchangeError {
  override name = 'UnexpectedResponseError';
}

/**
 * A response that does not follow the contract: not the promised XML, a required field missing, a list longer than
 * the reference's maximum or a body too large to be one. Retrying the same request would get the same answer.
 */
export class ProtocolError extends FileExchangeError {
  override name = 'ProtocolError';
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
  /**
   * For a full disk (`ENOSPC`, `EDQUOT`): the bytes the file needs, when known (its announced length, or at least
   * what had arrived when the disk filled). A later run checks the free space against it before spending a download.
   */
  readonly neededBytes: number | undefined;
  constructor(message: string, details: FileExchangeErrorDetails & { code?: string; path?: string; neededBytes?: number | undefined }) {
    super(message, details);
    this.code = details.code;
    this.path = details.path;
    this.neededBytes = details.neededBytes;
  }
}

/** Network errors or 500s went on past the retry window (the reference's by default): investigate by hand. */
export class RetriesExhaustedError extends FileExchangeError {
  override name = 'RetriesExhaustedError';
  readonly attempts: number;
  readonly elapsedMs: number;
  constructor(
    message: string,
    details: { operation: FileExchangeOperation; fileName?: string | undefined; attempts: number; elapsedMs: number; lastFailure: FileExchangeError },
  ) {
    super(message, { operation: details.operation, fileName: details.fileName, status: details.lastFailure.status, cause: details.lastFailure });
    this.attempts = details.attempts;
    this.elapsedMs = details.elapsedMs;
  }
}

/**
 * The caller's signal fired, or the client was closed, before the operation finished. `cause` is the signal's reason
 * (the error a caller passed to `abort()`, or a `TimeoutError` of `AbortSignal.timeout`).
 */
export class AbortedError extends FileExchangeError {
  override name = 'AbortedError';
  constructor(details: { operation: FileExchangeOperation; fileName?: string | undefined; reason: unknown }) {
    const why = details.reason instanceof Error ? `: ${details.reason.message}` : '';
    super(`${details.operation}${details.fileName === undefined ? '' : ` ${details.fileName}`} aborted${why}.`, {
      operation: details.operation,
      fileName: details.fileName,
      cause: details.reason,
    });
  }
}
