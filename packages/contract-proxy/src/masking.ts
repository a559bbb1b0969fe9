import type { MatchedOperation } from '@paykit/contract-validation';
import { fileExchangeSensitive, paymentsSensitive, sensitiveKindOf, type SensitiveKind, type SensitiveTable } from './generated/sensitive.js';
import type { HarHeader, RecordedMessage } from './har.js';
import type { MaskHint, Masked } from './mask-hint.js';

/** What a masked secret becomes in a recording. */
export const redacted = '[redacted]';

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

/**
 * Headers that carry credentials of the transport rather than of the contract (a proxy's own login, cookies: the
 * contracts have no cookie parameter): OUR choice, redacted beside what the contract marks.
 */
const transportCredentials = new Set(['proxy-authorization', 'cookie', 'set-cookie']);

/** A value of `kind` as a recording may hold it: a card number keeps at most its last four characters. */
export function maskValue(kind: SensitiveKind, value: string): string {
  if (kind !== 'card-number') return redacted;
  return `${'*'.repeat(Math.max(0, value.length - 4))}${value.slice(-4)}`;
}

/** What a replay needs of a value of `kind`: never the value. */
function hintOf(kind: SensitiveKind, value: string): MaskHint {
  if (kind === 'card-security-code') return { kind, length: value.length };
  if (kind !== 'card-number' || !/^\d{12,19}$/.test(value)) return { kind };
  const scheme = cardSchemeOf(value);
  // The issuer's prefix (IIN) and the last four digits are what a card shows of itself (the service answers them in
  // its own masked number): kept, so that a replay sends a card of the same issuer and ending.
  return { kind, length: value.length, iin: value.slice(0, 6), last4: value.slice(-4), ...(scheme ? { scheme } : {}) };
}

const tables: Record<string, SensitiveTable> = { payments: paymentsSensitive, 'file-exchange': fileExchangeSensitive };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The user name of Basic credentials (the payments API's key), or undefined. */
function basicUser(authorization: string): string | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(authorization);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/** The last property a field name names (`creditCard.cardNumber` -> `cardNumber`, `items[0].cvn` -> `cvn`). */
const lastName = (field: string) => field.split(/[.[\]]/).filter(Boolean).pop() ?? field;

/**
 * How a recording hides what a contract marks sensitive (`x-paykit-sensitive`, read from the generated table
 * `src/generated/sensitive.ts`, never a list of our own): the marked parameters (the `Authorization` header among them),
 * every property of a marked name at any depth of a JSON body, the value a field error echoes of a marked field, and
 * the whole body of an operation whose secret field is not published.
 */
export class Masking {
  private readonly table: SensitiveTable;
  /** Keys known to be secret (declared, or sent as credentials): masked wherever else they appear. */
  private readonly keys = new Set<string>();

  constructor(contract: string, knownKeys: readonly string[] = []) {
    const table = tables[contract];
    if (!table) throw new Error(`no sensitive marks for the ${contract} contract`);
    this.table = table;
    for (const key of knownKeys) this.learn(key);
  }

  /** A key (a marked credential's value) is masked wherever it appears: in a query string or a body by mistake. */
  private learn(key: string | undefined): void {
    // Bounded: a session uses a handful of keys; a flood of distinct ones stops being learnt, not the masking of the rest.
    if (key !== undefined && key.length >= 8 && this.keys.size < 100) this.keys.add(key);
  }

  /** `text` with every known key in it replaced. */
  private scrub(text: string): string {
    for (const key of this.keys) if (text.includes(key)) text = text.split(key).join(redacted);
    return text;
  }

  request(matched: MatchedOperation | undefined, operationId: string, url: URL, message: RecordedMessage): MaskedRequest {
    const masked: Masked = {};
    const { parameters } = this.table;
    const authorization = message.headers.authorization;
    if (typeof authorization === 'string' && sensitiveKindOf(parameters.header, 'authorization')) this.learn(basicUser(authorization));
    for (const [name, value] of url.searchParams) {
      const kind = sensitiveKindOf(parameters.query, name);
      if (kind) {
        masked[`query.${name}`] = hintOf(kind, value);
        url.searchParams.set(name, maskValue(kind, value));
      }
    }
    if (matched) {
      for (const [name, value] of Object.entries(matched.pathParams)) {
        const kind = sensitiveKindOf(parameters.path, name);
        if (!kind) continue;
        masked[`path.${name}`] = hintOf(kind, value);
        url.pathname = url.pathname.split('/').map((segment) => (decodeURIComponent(segment) === value ? encodeURIComponent(maskValue(kind, value)) : segment)).join('/');
      }
    }
    const whole = this.table.bodies[operationId]?.request;
    const body = this.body(message, whole, masked);
    for (const [name, value] of url.searchParams) if (this.scrub(value) !== value) url.searchParams.set(name, this.scrub(value));
    return {
      url: this.scrub(url.href),
      headers: this.headers(message.headers),
      query: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(body !== undefined ? { body } : {}),
      ...(Object.keys(masked).length ? { masked } : {}),
    };
  }

  answer(operationId: string, message: RecordedMessage): MaskedAnswer {
    const body = this.body(message, this.table.bodies[operationId]?.response, undefined);
    return { headers: this.headers(message.headers), ...(body !== undefined ? { body } : {}) };
  }

  private headers(headers: RecordedMessage['headers']): HarHeader[] {
    const pairs: HarHeader[] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      const lower = name.toLowerCase();
      const kind = sensitiveKindOf(this.table.parameters.header, lower) ?? (transportCredentials.has(lower) ? 'secret' : undefined);
      pairs.push({ name, value: kind ? maskValue(kind, text) : this.scrub(text) });
    }
    return pairs;
  }

  /** The body as text, masked; `whole` when every value in it is sensitive. */
  private body(message: RecordedMessage, whole: SensitiveKind | undefined, masked: Masked | undefined): string | undefined {
    if (message.body.length === 0) return undefined;
    if (message.json === undefined) return whole ? redacted : this.scrub(message.body.toString('utf8'));
    return this.scrub(JSON.stringify(this.value(message.json, 'body', whole, masked)));
  }

  private value(value: unknown, location: string, kind: SensitiveKind | undefined, masked: Masked | undefined): unknown {
    if (kind && (typeof value === 'string' || typeof value === 'number')) {
      const text = String(value);
      if (masked) masked[location] = hintOf(kind, text);
      return maskValue(kind, text);
    }
    if (Array.isArray(value)) return value.map((item, index) => this.value(item, `${location}[${index}]`, kind, masked));
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      let itemKind = kind ?? sensitiveKindOf(this.table.properties, name);
      // A value that repeats another field's (a field error's `fieldValue`) is as sensitive as the field it names.
      const namer = Object.prototype.hasOwnProperty.call(this.table.echoes, name) ? this.table.echoes[name] : undefined;
      if (!itemKind && namer !== undefined && typeof value[namer] === 'string') itemKind = sensitiveKindOf(this.table.properties, lastName(value[namer] as string));
      out[name] = this.value(item, `${location}.${name}`, itemKind, masked);
    }
    return out;
  }
}
