import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookConfigurationError } from './configuration-error.js';
import { WebhookVerificationError } from './verification-error.js';

/**
 * ASSUMPTION: the reference shows the header `t=<timestamp_milliseconds>,v1=<hex_signature>` but does not publish
 * the algorithm. This default is HMAC-SHA256 of `<t>.<raw body>` keyed with the subscription's secret, the scheme
 * that header shape comes from. Pass another `SignatureScheme` once the operator documents theirs.
 */
export type SignatureScheme = (secret: string, timestamp: string, rawBody: Uint8Array) => string;

export const hmacSha256Scheme: SignatureScheme = (secret, timestamp, rawBody) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

export interface ParsedSignature {
  /** The `t` value as sent (milliseconds since the epoch, as text: it is signed as text). */
  timestamp: string;
  /** Every `v1` value (several while a secret is being rolled over). */
  signatures: string[];
}

/** Parses `t=...,v1=...[,v1=...]`, ignoring keys it does not know (other schemes, future versions). */
export function parseSignatureHeader(header: string | undefined | null): ParsedSignature {
  if (typeof header !== 'string' || header.trim() === '') {
    throw new WebhookVerificationError('missing-signature', 'The notification has no signature header.');
  }
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,16}$/.test(value)) {
        throw new WebhookVerificationError('malformed-signature', 'The signature header has a missing, repeated or non-numeric t.');
      }
      timestamp = value;
    } else if (key === 'v1' && /^(?:[0-9a-fA-F]{2})+$/.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed-signature', 'The signature header needs t=<milliseconds> and at least one hex v1.');
  }
  return { timestamp, signatures };
}

export type RawBody = string | Uint8Array | ArrayBuffer;

/** The raw bytes of the body; a parsed object cannot be verified (re-serialising it changes the bytes). */
export function rawBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new WebhookVerificationError(
    'parsed-body',
    'The raw request body (a string or Buffer) is needed to verify the signature, but an already-parsed body was given. ' +
      'Read the body raw (for example express.raw({ type: "application/json" })) and pass it as it arrived.',
  );
}

export interface VerifyOptions {
  /** The secret of the webhook subscription: a non-empty string. */
  secret: string;
  /** How far the signed timestamp may be from now, in milliseconds: finite, 0 or more. Default 5 minutes. */
  toleranceMs?: number;
  /** The current time in milliseconds (for tests). */
  now?: number;
  scheme?: SignatureScheme;
}

export const defaultToleranceMs = 5 * 60 * 1000;

/** What a secret-like option was given instead of a usable value, in words that never include the value. */
export function describeUnusable(value: unknown): string {
  return typeof value === 'string' ? 'an empty or blank string' : value === null ? 'null' : typeof value;
}

/** Refuses a secret anybody could sign with: missing, not a string, empty or only spaces. */
function checkWebhookSecret(secret: unknown): void {
  if (typeof secret !== 'string' || secret.trim() === '') {
    throw new WebhookConfigurationError(
      'secret',
      `The webhook secret must be a non-empty string, got ${describeUnusable(secret)}: with none, anybody could sign ` +
        'a notification. Pass the secret of the webhook subscription.',
    );
  }
}

/** Refuses options that would weaken the checks or turn them off; the receiver checks them once, when it is made. */
export function checkVerifyOptions(options: VerifyOptions): void {
  if (!options || typeof options !== 'object') throw new WebhookConfigurationError('options', 'The webhook options are missing.');
  checkWebhookSecret(options.secret);
  const { toleranceMs, now, scheme } = options;
  // NaN or Infinity would let any timestamp through: `Math.abs(now - t) > NaN` is never true.
  if (toleranceMs !== undefined && !(typeof toleranceMs === 'number' && Number.isFinite(toleranceMs) && toleranceMs >= 0)) {
    throw new WebhookConfigurationError('toleranceMs', 'toleranceMs must be a finite number of milliseconds, 0 or more.');
  }
  if (now !== undefined && !(typeof now === 'number' && Number.isFinite(now))) {
    throw new WebhookConfigurationError('now', 'now must be a finite number of milliseconds since the epoch.');
  }
  if (scheme !== undefined && typeof scheme !== 'function') {
    throw new WebhookConfigurationError('scheme', 'scheme must be a function (secret, timestamp, rawBody) => hex signature.');
  }
}

/**
 * Checks what a notification's signature header alone can tell, before its body is read: that it has the header's
 * form, and that its timestamp is within the tolerance. Returns the parsed header, or throws a
 * WebhookVerificationError.
 */
export function checkSignatureHeader(header: string | undefined | null, options: VerifyOptions): ParsedSignature {
  checkVerifyOptions(options);
  const parsed = parseSignatureHeader(header);
  const tolerance = options.toleranceMs ?? defaultToleranceMs;
  const now = options.now ?? Date.now();
  if (Math.abs(now - Number(parsed.timestamp)) > tolerance) {
    throw new WebhookVerificationError('timestamp-outside-tolerance', `The signature timestamp is more than ${tolerance} ms away from now.`);
  }
  return parsed;
}

/** Checks that one of the header's signatures (already checked by `checkSignatureHeader`) signs the raw body. */
export function checkSignedBody(rawBody: RawBody, parsed: ParsedSignature, options: VerifyOptions): void {
  const bytes = rawBytes(rawBody);
  const expected = Buffer.from((options.scheme ?? hmacSha256Scheme)(options.secret, parsed.timestamp, bytes), 'hex');
  // Every candidate is compared in full, in constant time for its length; the length itself is not secret.
  let matched = false;
  for (const candidate of parsed.signatures) {
    const given = Buffer.from(candidate, 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('signature-mismatch', 'No v1 signature matches the body.');
}

/**
 * Checks the signature header of a raw body; returns the parsed header or throws a WebhookVerificationError (a
 * WebhookConfigurationError for unusable options).
 */
export function verifySignature(rawBody: RawBody, header: string | undefined | null, options: VerifyOptions): ParsedSignature {
  checkVerifyOptions(options);
  rawBytes(rawBody);
  const parsed = checkSignatureHeader(header, options);
  checkSignedBody(rawBody, parsed, options);
  return parsed;
}

/** A body and its signature header, signed like the service would (under the assumed scheme), for merchants' tests. */
export function signTestPayload(
  payload: unknown,
  options: { secret: string; timestamp?: number; scheme?: SignatureScheme },
): { body: string; header: string } {
  checkWebhookSecret(options.secret);
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const timestamp = String(options.timestamp ?? Date.now());
  const signature = (options.scheme ?? hmacSha256Scheme)(options.secret, timestamp, new TextEncoder().encode(body));
  return { body, header: `t=${timestamp},v1=${signature}` };
}
