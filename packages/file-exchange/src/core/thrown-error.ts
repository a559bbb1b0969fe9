import { AbortedError, FileExchangeError, LocalFileError, ProxyRefusedError, TlsHandshakeError, TransientFailureError, type FileExchangeOperation } from './errors.js';
import { classifyNetworkFailure, refusedCertificateHint } from './network-failure.js';

export interface FailureContext {
  operation: FileExchangeOperation;
  fileName?: string | undefined;
  /** The call's signal: once it fired, whatever the request threw is reported as AbortedError. */
  signal?: AbortSignal | undefined;
}

export function describeCall(context: FailureContext): string {
  return context.fileName === undefined ? context.operation : `${context.operation} ${context.fileName}`;
}

/**
 * Classifies an error thrown while talking to the service, the same way for both clients: an abort is AbortedError;
 * certificate, TLS and proxy problems are final (retrying cannot fix them); a local file's failure is LocalFileError;
 * everything else that went wrong on the wire (refused, reset, cut short, stalled) is a TransientFailureError the
 * retry rule handles.
 */
export function errorForThrown(context: FailureContext, error: unknown): FileExchangeError {
  const { signal, ...details } = context;
  if (signal?.aborted) return error instanceof AbortedError ? error : new AbortedError({ ...details, reason: signal.reason });
  if (error instanceof FileExchangeError) return error;
  const what = describeCall(context);
  const failure = classifyNetworkFailure(error);
  switch (failure.kind) {
    case 'server-certificate-untrusted':
    case 'client-certificate-refused':
    case 'tls':
      return new TlsHandshakeError(
        failure.kind === 'server-certificate-untrusted'
          ? `${what}: TLS handshake failed (${failure.code ?? failure.reason}); the server's certificate is not trusted (check ca).`
          : `${what}: TLS handshake failed (${failure.code ?? failure.reason}); the server refused the client certificate or is not trusted (check ca).`,
        { ...details, reason: failure.kind, code: failure.code, cause: failure.source },
      );
    case 'local-file':
      return localFileError(details, undefined, failure.source);
    case 'proxy-refused':
      return new ProxyRefusedError(`${what}: the proxy refused the tunnel (${failure.proxyStatus}); check the proxy address and credentials (not shown).`, {
        ...details,
        proxyStatus: failure.proxyStatus!,
      });
    default: {
      const code = failure.code === undefined ? '' : `${failure.code}: `;
      if ((error as { reusedConnection?: boolean }).reusedConnection === true) {
        return new TransientFailureError(
          `${what}: the connection kept open since an earlier request was closed before the answer came (${code}${failure.reason}); tried again at once on a new connection.`,
          { ...details, code: failure.code, cause: error, staleConnection: true },
        );
      }
      const hint = failure.closedWithoutAnswer ? ` ${refusedCertificateHint}` : '';
      return new TransientFailureError(`${what}: network error (${code}${failure.reason}).${hint}`, { ...details, code: failure.code, cause: error });
    }
  }
}

/** A failure of a file of this machine: final, whatever the operation (see LocalFileError). */
export function localFileError(context: FailureContext, path: string | undefined, error: unknown, neededBytes?: number): LocalFileError {
  const failure = error as NodeJS.ErrnoException;
  const file = path ?? failure.path;
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  const needs = full && neededBytes !== undefined ? ` (the file needs ${neededBytes} bytes)` : '';
  return new LocalFileError(`${describeCall(context)}: the local file${file === undefined ? '' : ` ${file}`} failed (${failure.message ?? String(error)})${needs}; the request is not retried.`, {
    operation: context.operation,
    fileName: context.fileName,
    ...(code === undefined ? {} : { code }),
    ...(file === undefined ? {} : { path: file }),
    ...(full && neededBytes !== undefined ? { neededBytes } : {}),
    cause: error,
  });
}
