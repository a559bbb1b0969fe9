import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { EncodedRequest } from '../codec/write-request.js';

export interface SoapHttpResponse {
  status: number;
  contentType: string;
  /** Content-Length of the response, when it has a valid one. */
  contentLength?: number;
  body: AsyncIterable<Uint8Array> & { dump(): Promise<void>; text(): Promise<string> };
}

/**
 * One SOAP 1.1 exchange over HTTP/1.1: `text/xml; charset=utf-8`, the WSDL's SOAPAction (quoted, empty for this
 * contract) and an exact Content-Length, with the body streamed from its segments.
 */
export async function postSoap(
  dispatcher: Dispatcher,
  url: string,
  soapAction: string,
  body: EncodedRequest,
  signal?: AbortSignal,
  /** Told each time a piece of the request is taken to be sent (for the stall timeout). */
  onSent?: () => void,
): Promise<SoapHttpResponse> {
  const response = await request(url, {
    method: 'POST',
    dispatcher,
    headers: {
      'content-type': 'text/xml; charset=utf-8',
      'content-length': String(body.byteLength),
      soapaction: `"${soapAction}"`,
      accept: 'text/xml',
    },
    body: Readable.from(onSent ? told(body.chunks(), onSent) : body.chunks(), { objectMode: false }),
    ...(signal ? { signal } : {}),
  });
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const contentLength = Number(header('content-length') ?? NaN);
  return {
    status: response.statusCode,
    contentType: header('content-type') ?? '',
    ...(Number.isSafeInteger(contentLength) && contentLength >= 0 ? { contentLength } : {}),
    body: response.body,
  };
}

async function* told<T>(pieces: AsyncIterable<T>, onPiece: () => void): AsyncGenerator<T> {
  for await (const piece of pieces) {
    onPiece();
    yield piece;
  }
}
