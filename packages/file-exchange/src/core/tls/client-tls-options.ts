/** Bytes, or a path to read them from. A string that holds PEM text (`-----BEGIN`) is taken as the text itself. */
export type CertificateSource = string | Buffer;

/** A PKCS12 (PFX) bundle as issued by the operator, with the password that opens it (it starts with "C"). */
export interface PfxCredentials {
  pfx: CertificateSource;
  passphrase: string;
}

/** A PEM certificate and its private key; `passphrase` opens an encrypted key. */
export interface PemCredentials {
  cert: CertificateSource;
  key: CertificateSource;
  passphrase?: string;
}

export interface TlsExtras {
  /** Certificate authority to trust instead of the system's (PEM). */
  ca?: CertificateSource;
  /** HTTP proxy reached with CONNECT: `http://[user:pass@]host:port`. */
  proxy?: string;
}

/** How both file exchange clients (REST and SOAP) authenticate: client-certificate TLS, optionally via a proxy. */
export type ClientTlsOptions = (PfxCredentials | PemCredentials) & TlsExtras;

export function isPfxCredentials(options: ClientTlsOptions): options is PfxCredentials & TlsExtras {
  return 'pfx' in options && options.pfx !== undefined;
}
