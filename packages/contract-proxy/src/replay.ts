import { contractValidator } from '@paykit/contract-validation';
import { exchange, upstreamOf, type UpstreamTls } from './http-exchange.js';
import type { Har, HarEntry } from './har.js';
import type { MaskHint } from './mask-hint.js';
import { cardSchemeOf, Masking, redacted } from './masking.js';
import type { ProxyContract } from './proxy.js';
import type { KeyType } from './key-use.js';
import { keyTypeOf } from './request-rules.js';

export interface ReplayOptions {
  /** The base address to replay against, e.g. a fresh sandbox's `url`. */
  target: string;
  /** The contract the recording is of (default `payments`): its path parameters name the identifiers. */
  contract?: ProxyContract;
  /** The keys that take the place of the redacted `Authorization`, by the key type the recorded request used. */
  secretKey?: string;
  publishableKey?: string;
  /**
   * Card numbers the target knows (a sandbox's test cards): a masked card is replayed as the one of them with its
   * scheme, length and last four digits, so that an outcome tied to a test card (3-D Secure, debit) is the same.
   */
  cards?: readonly string[];
  upstreamTls?: UpstreamTls;
  signal?: AbortSignal;
}

export interface ReplayedEntry {
  operation: string;
  method: string;
  path: string;
  recordedStatus: number;
  /** Undefined when the entry was not sent (see `skipped`). */
  replayedStatus?: number;
  /** The replay got the recorded status and, identifiers and times aside, the recorded body. */
  matches: boolean;
  /** Where the bodies differ, e.g. `body.status: recorded "Approved", replayed "Declined"` (masked values only). */
  differences: string[];
  /** Why the entry was not sent: the service never answered it when it was recorded. */
  skipped?: string;
}

export interface ReplayResult {
  entries: ReplayedEntry[];
  /** Entries replayed that did not match. */
  mismatches: number;
  skipped: number;
}

/** The first digits of a number of each scheme (its public ranges), for a card rebuilt in its place. */
const schemePrefixes: Record<string, string> = { VISA: '4', MASTERCARD: '51', AMEX: '34', DINERS: '36', JCB: '35', UNIONPAY: '62' };
/** A number of no known scheme stays one: the service refuses it the same way. */
const noSchemePrefix = '9';

/** A number of `length` digits starting with `prefix`, ending with `last4`, that passes the Luhn check. */
function luhnCard(prefix: string, length: number, last4: string): string {
  const digits = [...prefix.padEnd(length - 4, '0'), ...last4].map(Number).slice(0, length);
  // The digit just before the last four is not doubled by Luhn (counting from the check digit): it can fix the sum.
  const free = length - 5;
  const sum = digits.reduce((total, digit, index) => {
    if (index === free) return total;
    const doubled = (length - 1 - index) % 2 === 1 ? digit * 2 : digit;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  digits[free] = (10 - (sum % 10)) % 10;
  return digits.join('');
}

/**
 * A card number the recording holds masked (`************1111`), as a number of the same length that passes the
 * Luhn check and keeps the last four digits: OUR replay convention, so that a masked card is still a card. A Visa
 * number unless `scheme` names another.
 */
export function cardForReplay(masked: string, scheme = 'VISA', cards: readonly string[] = []): string {
  const last4 = masked.slice(-4);
  const known = cards.find((card) => card.length === masked.length && card.endsWith(last4) && cardSchemeOf(card) === scheme);
  return known ?? luhnCard(schemePrefixes[scheme] ?? noSchemePrefix, masked.length, last4);
}

const maskedCard = /^\*{8,15}\d{4}$/;

/** The card of `cards` with a number's issuer prefix (or scheme), length and last four digits, if any. */
function knownCard(cards: readonly string[], hint: MaskHint): string | undefined {
  return cards.find(
    (card) => card.length === hint.length && card.endsWith(hint.last4!) && (hint.iin ? card.startsWith(hint.iin) : cardSchemeOf(card) === hint.scheme),
  );
}

/** The value a replay sends in the place of a masked one, from what the recording kept of it. */
function replacement(hint: MaskHint, masked: unknown, cards: readonly string[]): unknown {
  if (hint.kind === 'card-number' && hint.length !== undefined && hint.last4 !== undefined) {
    const prefix = hint.iin ?? (hint.scheme ? schemePrefixes[hint.scheme] : undefined) ?? noSchemePrefix;
    return knownCard(cards, hint) ?? luhnCard(prefix, hint.length, hint.last4);
  }
  // A security code is any code of its length: what the recording kept of it.
  if (hint.kind === 'card-security-code' && hint.length !== undefined) return '1'.repeat(hint.length);
  // A secret (a wallet token) cannot be put back: it goes as recorded, masked, and the answer may differ.
  return masked;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets the value at `body.a.b[0].c` in a parsed body. */
function setAt(body: unknown, location: string, value: (current: unknown) => unknown): void {
  const path = location.replace(/^body\.?/, '').match(/[^.[\]]+/g) ?? [];
  let at: unknown = body;
  for (const [index, segment] of path.entries()) {
    if (!isObject(at) && !Array.isArray(at)) return;
    const holder = at as Record<string, unknown>;
    if (index === path.length - 1) holder[segment] = value(holder[segment]);
    else at = holder[segment];
  }
}

/** Identifiers the recorded service answered with and those the target answered with instead. */
type Names = Map<string, string>;

const dateTime = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `recorded` with every identifier learned so far replaced, inside strings too (`links.self`). */
function rename(value: unknown, names: Names): unknown {
  if (typeof value === 'string') {
    const whole = names.get(value);
    if (whole !== undefined) return whole;
    if (maskedCard.test(value) || names.size === 0) return value;
    let text = value;
    for (const [recorded, replayed] of names) if (recorded.length >= 4 && text.includes(recorded)) text = text.split(recorded).join(replayed);
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => rename(item, names));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rename(item, names)]));
  return value;
}

/**
 * Compares a recorded body with a replayed one, field by field: an identifier field (one named like a path
 * parameter of the contract) may differ and is learned; dates and times may differ; anything else must be equal.
 */
function compare(recorded: unknown, replayed: unknown, where: string, identifiers: ReadonlySet<string>, names: Names, differences: string[], field = ''): void {
  if (identifiers.has(field) && typeof recorded === typeof replayed && (typeof recorded === 'string' || typeof recorded === 'number')) {
    if (recorded !== replayed) names.set(String(recorded), String(replayed));
    return;
  }
  if (typeof recorded === 'string' && typeof replayed === 'string') {
    if (dateTime.test(recorded) && dateTime.test(replayed)) return;
    if (rename(recorded, names) !== replayed) differences.push(`${where}: recorded ${JSON.stringify(recorded)}, replayed ${JSON.stringify(replayed)}`);
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    if (recorded.length !== replayed.length) differences.push(`${where}: recorded ${recorded.length} items, replayed ${replayed.length}`);
    recorded.slice(0, replayed.length).forEach((item, index) => compare(item, replayed[index], `${where}[${index}]`, identifiers, names, differences, field));
    return;
  }
  if (isObject(recorded) && isObject(replayed)) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(replayed)])) {
      if (!(key in replayed)) differences.push(`${where}.${key}: recorded, missing from the replay`);
      else if (!(key in recorded)) differences.push(`${where}.${key}: not recorded, present in the replay`);
      else compare(recorded[key], replayed[key], `${where}.${key}`, identifiers, names, differences, key);
    }
    return;
  }
  if (recorded !== replayed) differences.push(`${where}: recorded ${JSON.stringify(recorded)}, replayed ${JSON.stringify(replayed)}`);
}

const parse = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * Replays a recording against another base address, in order, as a regression test of the merchant's flow. What
 * the recording cannot hold is put back (OUR replay conventions): the key of the type each request used (a key
 * never accepted stays a key the target does not know), each masked card as a card of the same scheme, length and
 * last four digits, and the identifiers the target answered with in the place of the recorded ones. Each answer's
 * status and body are compared with the recorded ones, identifiers and times aside. Exchanges the service never
 * answered (refused by `--strict`, or not reached) are not sent.
 */
export async function replayHar(har: Har, options: ReplayOptions): Promise<ReplayResult> {
  const base = har.log._paykitBaseUrl;
  const target = new URL(options.target.replace(/\/+$/, ''));
  const validator = contractValidator(options.contract ?? 'payments');
  const masking = new Masking(options.contract ?? 'payments');
  const identifiers = new Set(validator.contract.operations.flatMap((operation) => operation.parameters.filter((p) => p.in === 'path').map((p) => p.name)));
  // A key's type may have been learned after its first use: any entry that knows it tells.
  const keyTypes = new Map<string, KeyType>();
  for (const entry of har.log.entries) if (entry._paykitKey?.type) keyTypes.set(entry._paykitKey.alias, entry._paykitKey.type);
  const upstream = upstreamOf(target, options.upstreamTls);
  // The recorded service's own address (in `links`, say) is the target's in the replay.
  const names: Names = new Map([[base, target.href.replace(/\/+$/, '')]]);
  const entries: ReplayedEntry[] = [];
  try {
    for (const entry of har.log.entries) {
      options.signal?.throwIfAborted();
      entries.push(await replayEntry(entry, { base, target, upstream, names, identifiers, keyTypes, validator, masking, options }));
    }
  } finally {
    await upstream.close();
  }
  const sent = entries.filter((entry) => entry.skipped === undefined);
  return { entries, mismatches: sent.filter((entry) => !entry.matches).length, skipped: entries.length - sent.length };
}

interface ReplayContext {
  base: string;
  target: URL;
  upstream: ReturnType<typeof upstreamOf>;
  names: Names;
  identifiers: ReadonlySet<string>;
  keyTypes: ReadonlyMap<string, KeyType>;
  validator: ReturnType<typeof contractValidator>;
  masking: Masking;
  options: ReplayOptions;
}

async function replayEntry(entry: HarEntry, context: ReplayContext): Promise<ReplayedEntry> {
  const { names, options } = context;
  const recordedUrl = new URL(entry.request.url);
  const relative = entry.request.url.startsWith(context.base) ? entry.request.url.slice(context.base.length) : recordedUrl.pathname + recordedUrl.search;
  const url = new URL(context.target.href + relative);
  url.pathname = url.pathname
    .split('/')
    .map((segment) => {
      const decoded = decodeURIComponent(segment);
      return names.has(decoded) ? encodeURIComponent(names.get(decoded)!) : segment;
    })
    .join('/');
  for (const [name, value] of [...url.searchParams]) if (names.has(value)) url.searchParams.set(name, names.get(value)!);
  for (const [location, hint] of Object.entries(entry._paykitMasked ?? {})) {
    const [where, name = ''] = location.split('.', 2);
    if (where === 'query') url.searchParams.set(name, String(replacement(hint, url.searchParams.get(name), options.cards ?? [])));
  }
  const subPath = url.pathname.slice(context.target.pathname.replace(/\/+$/, '').length);
  const result = { operation: entry._paykitOperation, method: entry.request.method, path: url.pathname + url.search, recordedStatus: entry.response.status };
  if (entry._paykitAnsweredBy === 'proxy') {
    return { ...result, matches: false, differences: [], skipped: 'the service never answered it when it was recorded' };
  }

  const matched = context.validator.match(entry.request.method, subPath);
  const recordedKey = entry._paykitKey;
  const keyType = recordedKey ? context.keyTypes.get(recordedKey.alias) : matched ? keyTypeOf(matched.operation) : undefined;
  const headers: Record<string, string> = {};
  for (const { name, value } of entry.request.headers) {
    const lower = name.toLowerCase();
    if (['host', 'content-length', 'connection', 'transfer-encoding'].includes(lower)) continue;
    if (lower === 'authorization' && value === redacted) {
      // A key whose type was never learned was never accepted: a key the target does not know stands in for it.
      const key = keyType === 'publishable' ? options.publishableKey : keyType === 'secret' ? options.secretKey : `unknown-${recordedKey?.alias ?? 'key'}`;
      if (key !== undefined) headers[name] = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
      continue;
    }
    headers[name] = value;
  }
  const recordedBody = entry.request.postData?.text;
  let json = parse(recordedBody);
  if (json !== undefined) {
    json = rename(json, names);
    for (const [location, hint] of Object.entries(entry._paykitMasked ?? {})) {
      if (location.startsWith('body')) setAt(json, location, (masked) => replacement(hint, masked, options.cards ?? []));
    }
    // A recording made before the hints were kept: a masked card is a Visa card.
    json = JSON.parse(JSON.stringify(json), (_key, value: unknown) => (typeof value === 'string' && maskedCard.test(value) ? cardForReplay(value, 'VISA', options.cards) : value));
  }
  const body = recordedBody === undefined ? Buffer.alloc(0) : Buffer.from(json === undefined ? recordedBody : JSON.stringify(json));
  const answer = await exchange(context.upstream, entry.request.method, url.pathname + url.search, headers, body, options.signal);
  // The replayed answer is masked as the recorded one was, then compared.
  const masked = context.masking.answer(entry._paykitOperation, { headers: answer.headers, body: answer.body, json: parse(answer.body.toString('utf8')) });
  const differences: string[] = [];
  const recordedJson = parse(entry.response.content.text);
  const replayedJson = parse(masked.body);
  if (recordedJson !== undefined || replayedJson !== undefined) compare(recordedJson, replayedJson, 'body', context.identifiers, names, differences);
  else if ((entry.response.content.text ?? '') !== (masked.body ?? '')) differences.push('body: the recorded and replayed texts differ');
  return { ...result, replayedStatus: answer.status, matches: answer.status === entry.response.status && differences.length === 0, differences };
}
