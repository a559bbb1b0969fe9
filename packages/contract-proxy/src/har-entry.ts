import type { MatchedOperation } from '@paykit/contract-validation';
import type { HarEntry, RecordedMessage } from './har.js';
import type { KeyUse } from './key-use.js';
import type { Masking } from './masking.js';
import type { Violation } from './violation.js';

const mimeOf = (headers: RecordedMessage['headers']) => String(headers['content-type'] ?? '');

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
  /** The operation matched, for its path parameters. */
  matched?: MatchedOperation | undefined;
  answeredBy?: 'proxy';
  key?: KeyUse | undefined;
}

/** An exchange as a HAR entry, every value the contract marks sensitive masked: nothing secret is kept. */
export function harEntry(input: RecordInput, masking: Masking): HarEntry {
  const url = new URL(input.url);
  const request = masking.request(input.matched, input.operation, url, input.request);
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

