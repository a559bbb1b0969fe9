import type { KeyUse } from './key-use.js';
import type { Masked, Masking } from './masking.js';
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
  /** The exchange's number in the session (1 for the first): what the report's violations point at. */
  _paykitExchange: number;
  /** The contract's operation the exchange was matched to. */
  _paykitOperation: string;
  _paykitViolations?: Pick<Violation, 'rule' | 'side' | 'location' | 'message'>[];
  /**
   * Set when the service never answered: the proxy refused the request (`--strict`) or could not reach the service.
   * The response is then the proxy's own, and a replay does not send the request.
   */
  _paykitAnsweredBy?: 'proxy';
  /** The key the request used, by alias and type, never the key: a replay sends the key of the same type. */
  _paykitKey?: KeyUse;
  /** What a replay needs of each value masked in the request (a card's scheme and length), never the value. */
  _paykitMasked?: Masked;
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
  /** The body parsed as JSON, when it is JSON (saves parsing it again). */
  json?: unknown;
}

export interface RecordInput {
  exchange: number;
  startedAt: Date;
  durationMs: number;
  method: string;
  url: string;
  operation: string;
  request: RecordedMessage;
  status: number;
  statusText: string;
  response: RecordedMessage;
  violations: readonly Violation[];
  answeredBy?: 'proxy';
  key?: KeyUse | undefined;
}

const mimeOf = (headers: RecordedMessage['headers']) => String(headers['content-type'] ?? '');

/** An exchange as a HAR entry, every value the contract marks sensitive masked: nothing secret is kept. */
export function harEntry(input: RecordInput, masking: Masking): HarEntry {
  const url = new URL(input.url);
  const request = masking.request(input.operation, url, input.request);
  const response = masking.answer(input.operation, input.response);
  return {
    startedDateTime: input.startedAt.toISOString(),
    time: input.durationMs,
    request: {
      method: input.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      headers: request.headers,
      queryString: request.query,
      cookies: [],
      headersSize: -1,
      bodySize: input.request.body.length,
      ...(request.body !== undefined ? { postData: { mimeType: mimeOf(input.request.headers), text: request.body } } : {}),
    },
    response: {
      status: input.status,
      statusText: input.statusText,
      httpVersion: 'HTTP/1.1',
      headers: response.headers,
      cookies: [],
      content: {
        size: input.response.body.length,
        mimeType: mimeOf(input.response.headers),
        ...(response.body !== undefined ? { text: response.body } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: input.response.body.length,
    },
    cache: {},
    timings: { send: 0, wait: input.durationMs, receive: 0 },
    _paykitExchange: input.exchange,
    _paykitOperation: input.operation,
    ...(input.violations.length ? { _paykitViolations: input.violations.map(({ rule, side, location, message }) => ({ rule, side, location, message })) } : {}),
    ...(input.answeredBy ? { _paykitAnsweredBy: input.answeredBy } : {}),
    ...(input.key ? { _paykitKey: { ...input.key } } : {}),
    ...(request.masked ? { _paykitMasked: request.masked } : {}),
  };
}

/** Everything of a recording but its entries. */
export function harHead(baseUrl: string, creatorVersion: string): Omit<Har['log'], 'entries'> {
  return { version: '1.2', creator: { name: '@paykit/contract-proxy', version: creatorVersion }, _paykitBaseUrl: baseUrl };
}

/** The base address a recording of traffic to `upstream` names (the one a replay replaces with its target). */
export function recordedBaseUrl(upstream: string): string {
  return new URL(upstream.replace(/\/+$/, '')).href.replace(/\/+$/, '');
}
