import { redacted } from '@paykit/payments/redaction';
import { exchange, type UpstreamTls } from './http-exchange.js';
import type { Har, HarEntry } from './har.js';
import { matchOperation } from './operations.js';

export interface ReplayOptions {
  /** The base address to replay against, e.g. a fresh sandbox's `url`. */
  target: string;
  /** The keys that take the place of the redacted `Authorization`, by the key type each operation takes. */
  secretKey?: string;
  publishableKey?: string;
  upstreamTls?: UpstreamTls;
  signal?: AbortSignal;
}

export interface ReplayedEntry {
  operation: string;
  method: string;
  path: string;
  recordedStatus: number;
  replayedStatus: number;
  /** The replay got the status the recording holds. */
  matches: boolean;
}

export interface ReplayResult {
  entries: ReplayedEntry[];
  mismatches: number;
}

/**
 * A card number the recording holds masked (`************1111`), as a number of the same length that passes the
 * Luhn check and keeps the last four digits: OUR replay convention, so that a masked card is still a card.
 */
export function cardForReplay(masked: string): string {
  const last = masked.slice(-4);
  const length = masked.length;
  const digits = ['4', ...'0'.repeat(length - 6), '0', ...last].map(Number);
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

const maskedCard = /^\*{8,15}\d{4}$/;

/** Learns what the recorded service named (ids, receipt numbers) and what the target names instead, leaf by leaf. */
function learn(recorded: unknown, replayed: unknown, names: Map<string, string>): void {
  if (typeof recorded === 'string' && typeof replayed === 'string') {
    if (recorded !== replayed && recorded.length > 0) names.set(recorded, replayed);
  } else if (typeof recorded === 'number' && typeof replayed === 'number') {
    if (recorded !== replayed && Number.isInteger(recorded)) names.set(String(recorded), String(replayed));
  } else if (Array.isArray(recorded) && Array.isArray(replayed)) {
    recorded.forEach((item, index) => learn(item, replayed[index], names));
  } else if (recorded && replayed && typeof recorded === 'object' && typeof replayed === 'object') {
    for (const [key, value] of Object.entries(recorded)) learn(value, (replayed as Record<string, unknown>)[key], names);
  }
}

function rename(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return names.get(value) ?? (maskedCard.test(value) ? cardForReplay(value) : value);
  if (Array.isArray(value)) return value.map((item) => rename(item, names));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v, names)]));
  return value;
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
 * Replays a recording against another base address, in order, as a regression test of the merchant's flow: the
 * redacted keys are replaced by the given ones, the identifiers the recorded service answered with are replaced in
 * later requests by those the target answered with, and each answer's status is compared with the recorded one.
 */
export async function replayHar(har: Har, options: ReplayOptions): Promise<ReplayResult> {
  const base = har.log._paykitBaseUrl;
  const target = options.target.replace(/\/+$/, '');
  const names = new Map<string, string>();
  const entries: ReplayedEntry[] = [];
  for (const entry of har.log.entries) {
    options.signal?.throwIfAborted();
    entries.push(await replayEntry(entry, base, target, names, options));
  }
  return { entries, mismatches: entries.filter((e) => !e.matches).length };
}

async function replayEntry(entry: HarEntry, base: string, target: string, names: Map<string, string>, options: ReplayOptions): Promise<ReplayedEntry> {
  const recordedUrl = new URL(entry.request.url);
  const relative = entry.request.url.startsWith(base) ? entry.request.url.slice(base.length) : recordedUrl.pathname + recordedUrl.search;
  const url = new URL(target + relative);
  url.pathname = url.pathname
    .split('/')
    .map((segment) => {
      const decoded = decodeURIComponent(segment);
      return names.has(decoded) ? encodeURIComponent(names.get(decoded)!) : segment;
    })
    .join('/');
  for (const [name, value] of [...url.searchParams]) if (names.has(value)) url.searchParams.set(name, names.get(value)!);

  const operation = matchOperation(entry.request.method, url.pathname.slice(new URL(target).pathname.replace(/\/+$/, '').length));
  const key = operation?.keyType === 'publishable' ? options.publishableKey : options.secretKey;
  const headers: Record<string, string> = {};
  for (const { name, value } of entry.request.headers) {
    const lower = name.toLowerCase();
    if (['host', 'content-length', 'connection', 'transfer-encoding'].includes(lower)) continue;
    if (lower === 'authorization' && value === redacted) {
      if (key !== undefined) headers[name] = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
      continue;
    }
    headers[name] = value;
  }
  const recordedBody = entry.request.postData?.text;
  const json = parse(recordedBody);
  const body = recordedBody === undefined ? Buffer.alloc(0) : Buffer.from(json === undefined ? recordedBody : JSON.stringify(rename(json, names)));
  const answer = await exchange(url, entry.request.method, headers, body, options.upstreamTls, options.signal);
  learn(parse(entry.response.content.text), parse(answer.body.toString('utf8')), names);
  return {
    operation: entry._paykitOperation,
    method: entry.request.method,
    path: url.pathname + url.search,
    recordedStatus: entry.response.status,
    replayedStatus: answer.status,
    matches: answer.status === entry.response.status,
  };
}
