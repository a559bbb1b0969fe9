import { readFile } from 'node:fs/promises';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { isPfxCredentials, type CertificateSource, type ClientTlsOptions } from './client-tls-options.js';
import { TlsConfigurationError } from './errors.js';

/** The material of ClientTlsOptions with every path read: what Node's TLS layer takes. */
export interface TlsMaterial {
  pfx?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  passphrase?: string;
  ca?: Buffer;
}

function looksLikePem(value: string): boolean {
  return value.includes('-----BEGIN ');
}

async function readSource(source: CertificateSource, what: string, textMayBePem: boolean): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source;
  if (typeof source !== 'string' || source.length === 0) {
    throw new TlsConfigurationError('invalid-options', `The ${what} must be a file path or its bytes.`);
  }
  if (textMayBePem && looksLikePem(source)) return Buffer.from(source);
  try {
    return await readFile(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new TlsConfigurationError('file-unreadable', `Cannot read the ${what} file ${source} (${code}).`);
  }
}

/** Names the file a message is about, without ever echoing bytes (they may be a private key). */
function describe(source: CertificateSource, what: string): string {
  return typeof source === 'string' && !looksLikePem(source) ? `${what} ${source}` : `${what} (given as bytes)`;
}

/**
 * OpenSSL's own words for the failures people actually hit, mapped to a problem and a sentence that helps. The
 * original error is deliberately not attached: this layer must not depend on what OpenSSL chooses to print.
 */
function explain(error: unknown, options: ClientTlsOptions): TlsConfigurationError {
  const text = error instanceof Error ? error.message : String(error);
  const pfx = isPfxCredentials(options);
  const subject = pfx ? describe(options.pfx, 'PKCS12 file') : describe(options.key, 'private key');
  if (/mac verify failure|bad decrypt|wrong password|bad password|maybe wrong password/i.test(text)) {
    return new TlsConfigurationError(
      'wrong-passphrase',
      `The password does not open the ${subject}: check the certificate password (it is not shown here).`,
    );
  }
  if (/key values mismatch/i.test(text)) {
    return new TlsConfigurationError('key-mismatch', `The private key does not belong to the certificate ${describe(pfx ? options.pfx : options.cert, 'file')}.`);
  }
  if (/passphrase|read key|unable to load|no start line|bad base64|decode|asn1|header too long|unsupported/i.test(text)) {
    const reason = /unsupported/i.test(text) ? ' (it may use a legacy algorithm that OpenSSL 3 no longer reads)' : '';
    return new TlsConfigurationError('invalid-certificate', `Cannot load the ${subject}${reason}: ${safeReason(text)}.`);
  }
  return new TlsConfigurationError('invalid-certificate', `Cannot use the ${subject}: ${safeReason(text)}.`);
}

/** OpenSSL reasons are short codes such as `error:...:PEM routines::no start line`; keep only the final words. */
function safeReason(text: string): string {
  const last = text.split(':').pop()?.trim();
  return last && last.length < 80 ? last : 'OpenSSL refused it';
}

/**
 * PEM text names what it holds: a key file without a `PRIVATE KEY` block (a certificate given for both, say) or a
 * certificate file without a `CERTIFICATE` block would otherwise reach OpenSSL and come back as a puzzling decoder
 * error. Bytes that are not PEM text are left to OpenSSL.
 */
function checkPemBlocks(options: { cert: CertificateSource; key: CertificateSource }, cert: Buffer, key: Buffer): void {
  const text = (bytes: Buffer) => bytes.subarray(0, 1 << 20).toString('latin1');
  const keyText = text(key);
  if (looksLikePem(keyText) && !/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(keyText)) {
    throw new TlsConfigurationError('missing-key', `The ${describe(options.key, 'private key file')} holds no private key (no PEM PRIVATE KEY block).`);
  }
  const certText = text(cert);
  if (looksLikePem(certText) && !certText.includes('-----BEGIN CERTIFICATE-----')) {
    throw new TlsConfigurationError('missing-certificate', `The ${describe(options.cert, 'certificate file')} holds no certificate (no PEM CERTIFICATE block).`);
  }
}

/**
 * Reads every path of the options and proves, before any connection, that the password opens the certificate and
 * that the key matches it: a wrong password then fails here with a clear message instead of as a handshake error.
 */
export async function loadTlsMaterial(options: ClientTlsOptions): Promise<TlsMaterial> {
  if (options === null || typeof options !== 'object') {
    throw new TlsConfigurationError('invalid-options', 'TLS options are required: a PKCS12 file and password, or a PEM certificate and key.');
  }
  const material: TlsMaterial = {};
  if (isPfxCredentials(options)) {
    if (typeof options.passphrase !== 'string') {
      throw new TlsConfigurationError('invalid-options', 'A PKCS12 certificate needs its password (passphrase).');
    }
    material.pfx = await readSource(options.pfx, 'PKCS12 certificate', false);
    material.passphrase = options.passphrase;
  } else if ('cert' in options && 'key' in options && options.cert && options.key) {
    material.cert = await readSource(options.cert, 'certificate', true);
    material.key = await readSource(options.key, 'private key', true);
    checkPemBlocks(options, material.cert, material.key);
    if (options.passphrase !== undefined) material.passphrase = options.passphrase;
  } else {
    throw new TlsConfigurationError('invalid-options', 'TLS options need either `pfx` and `passphrase`, or `cert` and `key`.');
  }
  if (options.ca !== undefined) material.ca = await readSource(options.ca, 'CA certificate', true);

  const { ca, ...credentials } = material;
  try {
    createSecureContext(credentials as SecureContextOptions);
  } catch (error) {
    throw explain(error, options);
  }
  if (ca) {
    try {
      createSecureContext({ ca });
    } catch (error) {
      throw new TlsConfigurationError('invalid-ca', `Cannot load the ${describe(options.ca!, 'CA certificate')}: ${safeReason(error instanceof Error ? error.message : String(error))}.`);
    }
  }
  return material;
}
