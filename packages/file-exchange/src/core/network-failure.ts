/**
 * What went wrong when a request to the service threw, sorted by what the caller should do about it:
 * - `server-certificate-untrusted`, `client-certificate-refused`, `tls`: the TLS set-up is wrong; retrying cannot help;
 * - `proxy-refused`: the HTTP proxy answered 407 or 403 to the tunnel (its address or credentials);
 * - `local-file`: a file of this machine failed (full disk, name too long, no permission): not the network's doing;
 * - `network`: everything else that broke the connection, retried by the reference's rule.
 */
export type NetworkFailureKind =
  | 'server-certificate-untrusted'
  | 'client-certificate-refused'
  | 'tls'
  | 'proxy-refused'
  | 'local-file'
  | 'network';

export interface NetworkFailure {
  kind: NetworkFailureKind;
  /** The most specific error code found (e.g. `ECONNRESET`, `CERT_HAS_EXPIRED`), when there is one. */
  code?: string;
  /** The message of the error the code comes from (OpenSSL's and Node's words; no secrets). */
  reason: string;
  /** The error in the cause chain the classification rests on. */
  source: unknown;
  /**
   * The server closed the connection without a word: what a server refusing a client certificate may do instead of
   * a TLS alert (Node's servers do), so the client cannot tell it from a network failure.
   */
  closedWithoutAnswer: boolean;
  /** For `proxy-refused`: the proxy's status. */
  proxyStatus?: number;
}

/**
 * A server that refuses a client certificate may just close the connection, with no TLS alert: retried as the
 * reference asks, but a message may say what else it may be.
 */
export const refusedCertificateHint =
  'If this repeats at once on every try, the server may be refusing the client certificate (wrong or foreign certificate, or an IP address not on the whitelist).';

/** Node's codes for a server certificate that failed verification (OpenSSL's X509_V_ERR_* names). */
const untrustedServerPrefix = /^(UNABLE_TO_|CERT_)/;
const untrustedServerCodes = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The alerts a server sends when it does not accept the client certificate. */
const refusedCertificateAlert = /^ERR_SSL_.*ALERT_(CERTIFICATE|BAD_CERTIFICATE|UNKNOWN_CA|ACCESS_DENIED|HANDSHAKE_FAILURE)/;
const otherTlsFailure = /^(ERR_SSL_|ERR_TLS_)/;
/** undici's ProxyAgent and our CONNECT tunnel word a refused tunnel so. */
const proxyRefusal = /Proxy (?:response \(|refused the tunnel: )(\d{3})/;

function* causes(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A file-system error names the path it failed on; a socket's errors never carry one. */
const isLocalFileError = (error: unknown): boolean => codeOf(error) !== undefined && typeof (error as { path?: unknown }).path === 'string';

function closedWithoutAnswer(code: string | undefined, reason: string): boolean {
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || /other side closed|before secure TLS connection/i.test(reason);
}

/** Sorts an error thrown by a request (undici's or node:https's, wrapped or not) into a NetworkFailure. */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
  const chain = [...causes(error)];
  const found = (kind: NetworkFailureKind, source: unknown, code: string | undefined): NetworkFailure => ({
    kind,
    ...(code === undefined ? {} : { code }),
    reason: messageOf(source),
    source,
    closedWithoutAnswer: false,
  });
  for (const item of chain) {
    const code = codeOf(item);
    if (code === undefined) continue;
    if (untrustedServerCodes.has(code) || untrustedServerPrefix.test(code)) return found('server-certificate-untrusted', item, code);
    if (refusedCertificateAlert.test(code)) return found('client-certificate-refused', item, code);
  }
  for (const item of chain) {
    const code = codeOf(item);
    if ((code !== undefined && otherTlsFailure.test(code)) || /alert|certificate/i.test(messageOf(item))) {
      return found('tls', item, code);
    }
    const proxyStatus = proxyRefusal.exec(messageOf(item))?.[1];
    if (proxyStatus === '407' || proxyStatus === '403') return { ...found('proxy-refused', item, code), proxyStatus: Number(proxyStatus) };
    if (isLocalFileError(item)) return found('local-file', item, code);
  }
  // The innermost error with a code says most about a broken connection (undici wraps the socket's error).
  const innermost = chain.at(-1);
  const code = codeOf(chain.findLast((item) => codeOf(item) !== undefined));
  const reason = messageOf(innermost);
  return { ...found('network', innermost, code), closedWithoutAnswer: closedWithoutAnswer(codeOf(innermost), reason) };
}
