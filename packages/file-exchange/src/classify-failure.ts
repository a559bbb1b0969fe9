import { classifyNetworkFailure, refusedCertificateHint } from './core/network-failure.js';
import { fileExchangeRules as rules, isRetriedStatus } from './core/rules.js';
import {
  AccessRefusedError,
  DownloadLimitReachedError,
  FileExchangeError,
  FileNameAlreadyUsedError,
  FileNameNotAcceptedError,
  FileNotInListError,
  LocalFileError,
  ProxyRefusedError,
  TlsHandshakeError,
  TransientFailureError,
  UnexpectedResponseError,
  UploadInProgressError,
  type FileExchangeOperation,
} from './errors.js';

export { refusedCertificateHint };

type Context = { operation: FileExchangeOperation; fileName?: string };

function label(context: Context): string {
  return context.fileName === undefined ? context.operation : `${context.operation} ${context.fileName}`;
}

/** The typed error for a status that is not the operation's success, following the reference's error table. */
export function errorForStatus(context: Context, status: number): FileExchangeError {
  const details = { ...context, status };
  const what = label(context);
  if (isRetriedStatus(status)) return new TransientFailureError(`${what}: the service answered ${status} (internal error).`, details);
  if (status === 403) {
    return new AccessRefusedError(`${what}: access refused (403); check the client certificate and the IP address whitelist.`, details);
  }
  switch (context.operation) {
    case 'uploadFile':
      if (status === 400) return new FileNameAlreadyUsedError(`${what}: the name is already used for a different file (400); choose a new name.`, details);
      if (status === 404) return new FileNameNotAcceptedError(`${what}: the service does not accept this file name (404).`, details);
      if (status === rules.uploads.busyStatus) {
        return new UploadInProgressError(`${what}: another upload is in progress (${status}); upload one file at a time.`, details);
      }
      break;
    case 'listFilesForDownload':
      if (status === 404) return new UnexpectedResponseError(`${what}: 404, the list address is wrong; check the base address (it ends with /services/messaging/rest).`, details);
      break;
    case 'downloadFile':
      if (status === 404) return new FileNotInListError(`${what}: the file is not in the download list (404).`, details);
      if (status === rules.downloads.exhaustedStatus) {
        return new DownloadLimitReachedError(
          `${what}: downloaded more than ${rules.downloads.maxAttemptsPerFile} times (${status}); the service refuses further downloads.`,
          details,
        );
      }
      break;
    case 'deleteFile':
      if (status === 404) return new FileNotInListError(`${what}: not a name of the download list (404); copy it exactly from the list.`, details);
      break;
  }
  return new UnexpectedResponseError(`${what}: unexpected HTTP status ${status}.`, details);
}

/**
 * Classifies an error thrown while talking to the service: certificate and proxy problems are final (retrying cannot
 * fix them), everything else that went wrong on the wire is a transient network failure the retry policy handles.
 */
export function errorForThrown(context: Context, error: unknown): FileExchangeError {
  if (error instanceof FileExchangeError) return error;
  const what = label(context);
  const failure = classifyNetworkFailure(error);
  switch (failure.kind) {
    case 'server-certificate-untrusted':
    case 'client-certificate-refused':
    case 'tls':
      return new TlsHandshakeError(
        `${what}: TLS handshake failed (${failure.code ?? failure.reason}); the server refused the client certificate or is not trusted (check ca).`,
        { ...context, cause: failure.source },
      );
    case 'local-file':
      return localFileError(context, undefined, failure.source);
    case 'proxy-refused':
      return new ProxyRefusedError(`${what}: the proxy refused the tunnel (${failure.proxyStatus}); check the proxy address and credentials (not shown).`, context);
    default: {
      const code = failure.code === undefined ? '' : `${failure.code}: `;
      const hint = failure.closedWithoutAnswer ? ` ${refusedCertificateHint}` : '';
      return new TransientFailureError(`${what}: network error (${code}${failure.reason}).${hint}`, { ...context, cause: error });
    }
  }
}

/** A failure of a file of this machine: final, whatever the operation (see LocalFileError). */
export function localFileError(context: Context, path: string | undefined, error: unknown): LocalFileError {
  const failure = error as NodeJS.ErrnoException;
  const file = path ?? failure.path;
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  return new LocalFileError(`${label(context)}: the local file${file === undefined ? '' : ` ${file}`} failed (${failure.message ?? String(error)}); the request is not retried.`, {
    ...context,
    ...(code === undefined ? {} : { code }),
    ...(file === undefined ? {} : { path: file }),
    cause: error,
  });
}
