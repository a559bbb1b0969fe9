import { maskCardNumbers, redactHeaders } from '@paykit/payments/redaction';
import type { HarHeader, RecordedMessage } from './har.js';

/** What a replay needs of one masked value, never the value: its kind, and for a card its scheme and shape. */
export interface MaskHint {
  kind: string;
  /** Card numbers: the scheme their leading digits name (public ranges), their length and last four digits. */
  scheme?: string;
  length?: number;
  last4?: string;
}

/** Hints by the location of each masked value in a request (`body.cardNumber`, `query.apiKey`). */
export type Masked = Record<string, MaskHint>;

export interface MaskedRequest {
  url: string;
  headers: HarHeader[];
  query: HarHeader[];
  body?: string;
  masked?: Masked;
}

export interface MaskedAnswer {
  headers: HarHeader[];
  body?: string;
}

/** How a recording hides what the contract marks sensitive. */
export interface Masking {
  request(operation: string, url: URL, message: RecordedMessage): MaskedRequest;
  answer(operation: string, message: RecordedMessage): MaskedAnswer;
}

/** A card scheme by the leading digits of its number (the schemes' public ranges), as the contract names schemes. */
export function cardSchemeOf(number: string): string | undefined {
  const n = (digits: number) => Number(number.slice(0, digits));
  if (number.startsWith('4')) return 'VISA';
  if ((n(2) >= 51 && n(2) <= 55) || (n(4) >= 2221 && n(4) <= 2720)) return 'MASTERCARD';
  if (n(2) === 34 || n(2) === 37) return 'AMEX';
  if ((n(3) >= 300 && n(3) <= 305) || n(2) === 36 || n(2) === 38) return 'DINERS';
  if (n(2) === 35) return 'JCB';
  if (n(2) === 62) return 'UNIONPAY';
  return undefined;
}

const flat = (headers: RecordedMessage['headers']): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
};

const pairs = (record: Record<string, string>): HarHeader[] => Object.entries(record).map(([name, value]) => ({ name, value }));

/** A card-number-like run of digits: 12 to 19 of them. */
const cardLike = /^\d{12,19}$/;

/**
 * The masking of the clients' own redaction: credential headers and runs of 12+ digits. Kept until the contract's
 * sensitive marks are generated into this package.
 */
export const patternMasking: Masking = {
  request(_operation, url, message) {
    const masked: Masked = {};
    let body: string | undefined;
    if (message.body.length > 0) {
      if (message.json !== undefined) {
        body = JSON.stringify(message.json, function (this: unknown, key, value: unknown) {
          if (typeof value === 'string' && cardLike.test(value)) {
            const scheme = cardSchemeOf(value);
            masked[`body.${key}`] = { kind: 'card-number', length: value.length, last4: value.slice(-4), ...(scheme ? { scheme } : {}) };
            return maskCardNumbers(value);
          }
          return typeof value === 'string' ? maskCardNumbers(value) : value;
        });
      } else body = maskCardNumbers(message.body.toString('utf8'));
    }
    return {
      url: maskCardNumbers(url.href),
      headers: pairs(redactHeaders(flat(message.headers))).map(({ name, value }) => ({ name, value: maskCardNumbers(value) })),
      query: [...url.searchParams].map(([name, value]) => ({ name, value: maskCardNumbers(value) })),
      ...(body !== undefined ? { body } : {}),
      ...(Object.keys(masked).length ? { masked } : {}),
    };
  },
  answer(_operation, message) {
    const text = message.body.length > 0 ? message.body.toString('utf8') : undefined;
    return {
      headers: pairs(redactHeaders(flat(message.headers))).map(({ name, value }) => ({ name, value: maskCardNumbers(value) })),
      ...(text !== undefined ? { body: message.json !== undefined ? JSON.stringify(message.json, (_key, value: unknown) => (typeof value === 'string' ? maskCardNumbers(value) : value)) : maskCardNumbers(text) } : {}),
    };
  },
};
