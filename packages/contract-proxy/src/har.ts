import { maskCardNumbers, maskCardNumbersIn, redactHeaders } from '@paykit/payments/redaction';
import type { Violation } from './violation.js';

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the parts a recorder writes. */
export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: HarHeader[];
    cookies: [];
    headersSize: -1;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: [];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The contract's operation the exchange was matched to. */
  _paykitOperation: string;
  _paykitViolations?: Pick<Violation, 'rule' | 'side' | 'location' | 'message'>[];
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    /** The upstream base address the entries' URLs start with: a replay puts its target in its place. */
    _paykitBaseUrl: string;
    entries: HarEntry[];
  };
}

/** One message as it crossed the proxy, before redaction. */
export interface RecordedMessage {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
}

const flatHeaders = (headers: RecordedMessage['headers']): Record<string, string> => {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
};

/** Headers with the clients' own redaction (@paykit/payments: credentials and cookies) as HAR name/value pairs. */
export function redactedHarHeaders(headers: RecordedMessage['headers']): HarHeader[] {
  return Object.entries(redactHeaders(flatHeaders(headers))).map(([name, value]) => ({ name, value: maskCardNumbers(value) }));
}

/** A body as text with card numbers masked by the clients' own masking; JSON stays JSON. */
export function redactedBody(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    return JSON.stringify(maskCardNumbersIn(JSON.parse(text) as unknown));
  } catch {
    return maskCardNumbers(text);
  }
}

export interface RecordInput {
  startedAt: Date;
  durationMs: number;
  method: string;
  url: string;
  request: RecordedMessage;
  status: number;
  statusText: string;
  response: RecordedMessage;
  operation: string;
  violations: readonly Violation[];
}

const mimeOf = (headers: RecordedMessage['headers']) => String(headers['content-type'] ?? '');

/** Collects the exchanges as HAR entries, each redacted as it is added: nothing secret is held for the file. */
export class HarRecorder {
  private readonly entries: HarEntry[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly creatorVersion: string,
  ) {}

  /** Adds the exchange and returns its entry, already redacted. */
  add(input: RecordInput): HarEntry {
    const url = new URL(input.url);
    const entry: HarEntry = {
      startedDateTime: input.startedAt.toISOString(),
      time: input.durationMs,
      request: {
        method: input.method,
        url: maskCardNumbers(input.url),
        httpVersion: 'HTTP/1.1',
        headers: redactedHarHeaders(input.request.headers),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value: maskCardNumbers(value) })),
        cookies: [],
        headersSize: -1,
        bodySize: input.request.body.length,
        ...(input.request.body.length ? { postData: { mimeType: mimeOf(input.request.headers), text: redactedBody(input.request.body) } } : {}),
      },
      response: {
        status: input.status,
        statusText: input.statusText,
        httpVersion: 'HTTP/1.1',
        headers: redactedHarHeaders(input.response.headers),
        cookies: [],
        content: {
          size: input.response.body.length,
          mimeType: mimeOf(input.response.headers),
          ...(input.response.body.length ? { text: redactedBody(input.response.body) } : {}),
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: input.response.body.length,
      },
      cache: {},
      timings: { send: 0, wait: input.durationMs, receive: 0 },
      _paykitOperation: input.operation,
      ...(input.violations.length
        ? { _paykitViolations: input.violations.map(({ rule, side, location, message }) => ({ rule, side, location, message: maskCardNumbers(message) })) }
        : {}),
    };
    this.entries.push(entry);
    return entry;
  }

  har(): Har {
    return { log: { ...harHead(this.baseUrl, this.creatorVersion), entries: [...this.entries] } };
  }
}

/** Everything of a recording but its entries. */
export function harHead(baseUrl: string, creatorVersion: string): Omit<Har['log'], 'entries'> {
  return { version: '1.2', creator: { name: '@paykit/contract-proxy', version: creatorVersion }, _paykitBaseUrl: baseUrl };
}

/** The base address a recording of traffic to `upstream` names (the one a replay replaces with its target). */
export function recordedBaseUrl(upstream: string): string {
  return new URL(upstream.replace(/\/+$/, '')).href.replace(/\/+$/, '');
}
