import { readFile } from 'node:fs/promises';
import { baseUrlExample, type FileExchangeClientOptions } from '../client.js';
import { parseBaseUrl } from '../core/base-url.js';
import type { ClientTlsOptions } from '../core/tls/client-tls-options.js';
import { TlsConfigurationError } from '../core/tls/errors.js';

/** A problem with the command line or the environment: exit code 2, with the message on standard error. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Connection settings: each option falls back to its environment variable (names as in `paykit-files --help`). */
export interface ConnectionFlags {
  'base-url'?: string | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  'cert-password-file'?: string | undefined;
  ca?: string | undefined;
  proxy?: string | undefined;
  'retry-interval'?: string | undefined;
  'retry-for'?: string | undefined;
  'stall-timeout'?: string | undefined;
}

export const environmentVariables = {
  'base-url': 'PAYKIT_FILES_BASE_URL',
  cert: 'PAYKIT_FILES_CERT_FILE',
  key: 'PAYKIT_FILES_KEY_FILE',
  password: 'PAYKIT_FILES_CERT_PASSWORD',
  'cert-password-file': 'PAYKIT_FILES_CERT_PASSWORD_FILE',
  ca: 'PAYKIT_FILES_CA_FILE',
  proxy: 'PAYKIT_FILES_PROXY',
  'retry-interval': 'PAYKIT_FILES_RETRY_INTERVAL',
  'retry-for': 'PAYKIT_FILES_RETRY_FOR',
  'stall-timeout': 'PAYKIT_FILES_STALL_TIMEOUT',
  'log-interval': 'PAYKIT_FILES_LOG_INTERVAL',
  'log-format': 'PAYKIT_FILES_LOG_FORMAT',
  ledger: 'PAYKIT_FILES_LEDGER',
} as const;

export function pick<Flags extends Partial<Record<keyof typeof environmentVariables, string | undefined>>>(
  flags: Flags,
  env: NodeJS.ProcessEnv,
  name: keyof Flags & keyof typeof environmentVariables,
): string | undefined {
  const value = flags[name] ?? env[environmentVariables[name]];
  return value === undefined || value === '' ? undefined : value;
}

/** Seconds given on the command line or in the environment, in milliseconds; `positive` refuses 0. */
export function seconds(value: string | undefined, what: string, positive = false): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || (positive && number === 0)) {
    throw new UsageError(`${what} must be a number of seconds${positive ? ' greater than 0' : ''}, not ${JSON.stringify(value)}.`);
  }
  return Math.round(number * 1000);
}

async function password(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const file = pick(flags, env, 'cert-password-file');
  if (file !== undefined) {
    try {
      return (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
    } catch (error) {
      throw new UsageError(`Cannot read the certificate password file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
  const value = env[environmentVariables.password];
  return value === undefined || value === '' ? undefined : value;
}

async function readCertificateFile(path: string): Promise<string> {
  try {
    return (await readFile(path)).toString('latin1');
  } catch (error) {
    throw new TlsConfigurationError('file-unreadable', `Cannot read the certificate file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}

/** A PEM file starts with `-----BEGIN`; anything else is taken as PKCS12, the format the operator issues. */
async function isPem(path: string): Promise<boolean> {
  return (await readCertificateFile(path)).slice(0, 4096).includes('-----BEGIN ');
}

async function holdsPrivateKey(path: string): Promise<boolean> {
  return /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(await readCertificateFile(path));
}

/** Builds the client options from flags and environment; the password is read from the environment or a file only. */
export async function clientOptionsFrom(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<FileExchangeClientOptions> {
  const given = pick(flags, env, 'base-url');
  if (!given) throw new UsageError(`Give the service address with --base-url or ${environmentVariables['base-url']}.`);
  const baseUrl = parseBaseUrl(given, baseUrlExample, (message) => new UsageError(message.replace(/^baseUrl/, '--base-url')));
  const options: FileExchangeClientOptions = { baseUrl };

  const cert = pick(flags, env, 'cert');
  const ca = pick(flags, env, 'ca');
  const proxy = pick(flags, env, 'proxy');
  const passphrase = await password(flags, env);
  if (cert !== undefined) {
    const extras = { ...(ca === undefined ? {} : { ca }), ...(proxy === undefined ? {} : { proxy }) };
    let tls: ClientTlsOptions;
    if (await isPem(cert)) {
      const key = pick(flags, env, 'key');
      if (key === undefined && !(await holdsPrivateKey(cert))) {
        throw new TlsConfigurationError('missing-key', `The PEM certificate ${cert} holds no private key: give its key with --key or ${environmentVariables.key}.`);
      }
      // A PEM bundle may hold the key next to the certificate.
      tls = { cert, key: key ?? cert, ...(passphrase === undefined ? {} : { passphrase }), ...extras };
    } else {
      if (passphrase === undefined) {
        throw new UsageError(`The PKCS12 certificate ${cert} needs its password: set ${environmentVariables.password} or --cert-password-file.`);
      }
      tls = { pfx: cert, passphrase, ...extras };
    }
    options.tls = tls;
  } else if (baseUrl.startsWith('https:')) {
    throw new UsageError(`The service needs the client certificate: give --cert or ${environmentVariables.cert}.`);
  }

  const intervalMs = seconds(pick(flags, env, 'retry-interval'), '--retry-interval');
  const maxDurationMs = seconds(pick(flags, env, 'retry-for'), '--retry-for');
  if (intervalMs !== undefined || maxDurationMs !== undefined) {
    // Setting the interval on the command line is the explicit choice the library asks for before going below the
    // reference's minimum wait.
    options.retry = { ...(intervalMs === undefined ? {} : { intervalMs, allowShortIntervals: true }), ...(maxDurationMs === undefined ? {} : { maxDurationMs }) };
  }
  // No byte for this long on a transfer (or no answer) is a network failure, retried under the retry rule.
  const stallMs = seconds(pick(flags, env, 'stall-timeout'), '--stall-timeout', true);
  if (stallMs !== undefined) options.stallTimeoutMs = stallMs;
  return options;
}
