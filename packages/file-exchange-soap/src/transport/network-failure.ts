/**
 * Sorts a failed request into what the caller should do about it. TLS failures are configuration problems (never
 * retried); everything else that breaks the connection is a network error (retried by the reference's rule).
 */
export type NetworkFailure =
  | { kind: 'client-certificate-refused'; code: string }
  | { kind: 'server-certificate-untrusted'; code: string }
  | { kind: 'network'; code: string };

/** Node's codes for a server certificate that failed verification (OpenSSL's X509_V_ERR_* names). */
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

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function classifyNetworkFailure(error: unknown): NetworkFailure {
  // undici wraps the socket's error: look through the cause chain for the most specific code.
  const codes: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = codeOf(current);
    if (code) codes.push(code);
  }
  for (const code of codes) {
    if (untrustedServerCodes.has(code)) return { kind: 'server-certificate-untrusted', code };
    if (/^ERR_SSL_.*ALERT_(CERTIFICATE|BAD_CERTIFICATE|UNKNOWN_CA|ACCESS_DENIED|HANDSHAKE_FAILURE)/.test(code)) {
      return { kind: 'client-certificate-refused', code };
    }
  }
  return { kind: 'network', code: codes.at(-1) ?? (error instanceof Error ? error.name : 'unknown') };
}
