/**
 * The client certificate, its key, the CA or the proxy address could not be used. The message names the file or
 * setting at fault and never carries the password, the key material or proxy credentials.
 */
export class TlsConfigurationError extends Error {
  override readonly name = 'TlsConfigurationError';
  readonly reason: TlsConfigurationProblem;

  constructor(reason: TlsConfigurationProblem, message: string) {
    super(message);
    this.reason = reason;
  }
}

export type TlsConfigurationProblem =
  | 'file-unreadable'
  | 'wrong-passphrase'
  | 'invalid-certificate'
  | 'missing-key'
  | 'missing-certificate'
  | 'key-mismatch'
  | 'invalid-ca'
  | 'invalid-proxy'
  | 'invalid-options';
