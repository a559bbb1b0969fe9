import type { KeyUse } from './key-use.js';
import type { Masked } from './mask-hint.js';
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

/** Everything of a recording but its entries. */
export function harHead(baseUrl: string, creatorVersion: string): Omit<Har['log'], 'entries'> {
  return { version: '1.2', creator: { name: '@paykit/contract-proxy', version: creatorVersion }, _paykitBaseUrl: baseUrl };
}

/** The base address a recording of traffic to `upstream` names (the one a replay replaces with its target). */
export function recordedBaseUrl(upstream: string): string {
  return new URL(upstream.replace(/\/+$/, '')).href.replace(/\/+$/, '');
}
