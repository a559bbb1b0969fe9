import { sensitiveEchoes, sensitiveProperties } from '../generated/sensitive-fields.js';

/**
 * Credentials wherever they appear: the client's own `authorization`, and the headers proxies, gateways and cookies
 * carry them in. Their values never reach a hook, an error or its JSON.
 */
const credentialHeaders = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'];

export const redacted = '[redacted]';

/** The lower-cased names to redact: the credential headers and those the caller marks as secret. */
export function secretHeaderNames(marked: readonly string[] = []): ReadonlySet<string> {
  return new Set(credentialHeaders.concat(marked.map((name) => name.toLowerCase())));
}

const credentialsOnly = secretHeaderNames();

/** A plain copy of headers (so that it prints and serialises), the secret values replaced. */
export function redactHeaders(headers: Headers | Record<string, string>, secret = credentialsOnly): Record<string, string> {
  const copy = headers instanceof Headers ? Object.fromEntries(headers) : { ...headers };
  for (const name in copy) if (secret.has(name.toLowerCase())) copy[name] = redacted;
  return copy;
}

/**
 * Every run of 12 digits or more with all but its last 4 digits replaced by `*`: card numbers have 12 to 19, and a
 * longer run may hold one. Digits of any script (full-width ones too); up to two spaces of any kind (tabs,
 * non-breaking), dots, dashes or pluses (a space in a query) may group them. Luhn is not asked for, since a mistyped
 * card number (the one a 422 echoes back) fails it and is still the payer's card; an order or receipt number that long
 * is masked too, which costs nothing.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(/\p{Nd}(?:[\s.+-]{0,2}\p{Nd}){11,}/gu, (run) => run.replace(/\p{Nd}(?=(?:[\s.+-]{0,2}\p{Nd}){4})/gu, '*'));
}

/**
 * A copy of a parsed body (or any JSON value) with what the contract marks as sensitive (`x-paykit-sensitive`,
 * generated into `sensitive.ts`) hidden: a card number keeps its last four digits; a security code, an expiry date or
 * a secret is `[redacted]`, whatever its length (a 422 echoing a three-digit CVN in `fieldValue` included: a field
 * that echoes another, named by its sibling, is as sensitive). Every other string is passed through
 * `maskCardNumbers`, and a whole number long enough to be a card number (a `fieldValue` sent as a number) becomes its
 * masked text.
 */
export function maskCardNumbersIn<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value), function (this: Record<string, unknown>, key, item: unknown) {
    const echoed = Object.hasOwn(sensitiveEchoes, key) && this[sensitiveEchoes[key]!];
    // A field named by a path (`creditCard.cvn`, `items[0].cardNumber`) is marked by its last name; own keys only
    // (`constructor` is no mark).
    const name = typeof echoed === 'string' ? echoed.replace(/.*[.\]]/, '') : key;
    const kind = Object.hasOwn(sensitiveProperties, name) ? sensitiveProperties[name] : undefined;
    const text = typeof item === 'string' || Number.isInteger(item) ? String(item) : '';
    if (kind && text) return kind === 'card-number' ? text.replace(/\p{Nd}(?=(?:\D*\p{Nd}){4})/gu, '*') : redacted;
    const masked = maskCardNumbers(text);
    return masked === text ? item : masked;
  });
}
