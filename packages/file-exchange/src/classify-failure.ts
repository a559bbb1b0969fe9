import {
  AccessRefusedError,
  DownloadLimitReachedError,
  FileExchangeError,
  FileNameAlreadyUsedError,
  FileNameNotAcceptedError,
  FileNotInListError,
  ProxyRefusedError,
  TlsHandshakeError,
  TransientFailureError,
  UnexpectedResponseError,
  UploadInProgressError,
  type FileExchangeOperation,
} from './errors.js';

type Context = { operation: FileExchangeOperation; fileName?: string };

function label(context: Context): string {
  return context.fileName === undefined ? context.operation : `${context.operation} ${context.fileName}`;
}

/** The typed error for a status that is not the operation's success, following the reference's error table. */
export function errorForStatus(context: Context, status: number): FileExchangeError {
  const details = { ...context, status };
  const what = label(context);
  if (status === 500) return new TransientFailureError(`${what}: the service answered 500 (internal error).`, details);
  if (status === 403) {
    return new AccessRefusedError(`${what}: access refused (403); check the client certificate and the IP address whitelist.`, details);
  }
  switch (context.operation) {
    case 'uploadFile':
      if (status === 400) return new FileNameAlreadyUsedError(`${what}: the name is already used for a different file (400); choose a new name.`, details);
      if (status === 404) return new FileNameNotAcceptedError(`${what}: the service does not accept this file name (404).`, details);
      if (status === 503) return new UploadInProgressError(`${what}: another upload is in progress (503); upload one file at a time.`, details);
      break;
    case 'listFilesForDownload':
      if (status === 404) return new UnexpectedResponseError(`${what}: 404, the list address is wrong; check the base address (it ends with /services/messaging/rest).`, details);
      break;
    case 'downloadFile':
      if (status === 404) return new FileNotInListError(`${what}: the file is not in the download list (404).`, details);
      if (status === 429) return new DownloadLimitReachedError(`${what}: downloaded more than 50 times (429); the service refuses further downloads.`, details);
      break;
    case 'deleteFile':
      if (status === 404) return new FileNotInListError(`${what}: not a name of the download list (404); copy it exactly from the list.`, details);
      break;
  }
  return new UnexpectedResponseError(`${what}: unexpected HTTP status ${status}.`, details);
}

function* causes(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * A server that refuses a client certificate may just close the connection, with no TLS alert: the client cannot
 * tell that from a network failure, so it retries as the reference asks, but says what else it may be.
 */
export const refusedCertificateHint =
  'If this repeats at once on every try, the server may be refusing the client certificate (wrong or foreign certificate, or an IP address not on the whitelist).';

function closedWithoutAnswer(code: unknown, reason: string): boolean {
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || /other side closed|before secure TLS connection/i.test(reason);
}

const tlsCode = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/**
 * Classifies an error thrown while talking to the service: certificate problems are final (retrying cannot fix
 * them), everything else that went wrong on the wire is a transient network failure the retry policy handles.
 */
export function errorForThrown(context: Context, error: unknown): FileExchangeError {
  if (error instanceof FileExchangeError) return error;
  const what = label(context);
  for (const item of causes(error)) {
    const code = (item as { code?: unknown }).code;
    const message = item instanceof Error ? item.message : '';
    if ((typeof code === 'string' && tlsCode.test(code)) || /alert|certificate/i.test(message)) {
      return new TlsHandshakeError(
        `${what}: TLS handshake failed (${typeof code === 'string' ? code : message}); the server refused the client certificate or is not trusted (check ca).`,
        { ...context, cause: item },
      );
    }
  }
  for (const item of causes(error)) {
    const proxyStatus = /Proxy (?:response \(|refused the tunnel: )(\d{3})/.exec(item instanceof Error ? item.message : '')?.[1];
    if (proxyStatus === '407' || proxyStatus === '403') {
      return new ProxyRefusedError(`${what}: the proxy refused the tunnel (${proxyStatus}); check the proxy address and credentials (not shown).`, context);
    }
  }
  const innermost = [...causes(error)].pop();
  const code = (innermost as { code?: unknown }).code;
  const reason = innermost instanceof Error ? innermost.message : String(innermost);
  const hint = closedWithoutAnswer(code, reason) ? ` ${refusedCertificateHint}` : '';
  return new TransientFailureError(`${what}: network error (${typeof code === 'string' ? `${code}: ` : ''}${reason}).${hint}`, {
    ...context,
    cause: error,
  });
}
