import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpsTransport } from '@paykit/file-exchange/core';
import { BufferPool, type EncodedRequest } from '../codec/write-request.js';

export interface SoapHttpResponse {
  status: number;
  contentType: string;
  /** Content-Length of the response, when it has a valid one. */
  contentLength?: number;
  body: IncomingMessage;
}

export interface SoapExchange {
  /** Ends the exchange in any phase, the reading of the response body included. */
  signal: AbortSignal;
  stallTimeoutMs: number | undefined;
  /** The error a stall or an abort ends the exchange with (so that whoever reads the body gets the typed error). */
  failure: (cause: unknown) => Error;
}

/**
 * One SOAP 1.1 exchange over HTTP/1.1, on the transport both clients share (node:https, one stall timer per request):
 * `text/xml; charset=utf-8`, the WSDL's SOAPAction (quoted, empty for this contract) and an exact Content-Length,
 * with the body streamed from its segments.
 */
export async function postSoap(transport: HttpsTransport, url: string, soapAction: string, body: EncodedRequest, exchange: SoapExchange): Promise<SoapHttpResponse> {
  const response = await transport.send({
    method: 'POST',
    url: new URL(url),
    headers: {
      'content-type': 'text/xml; charset=utf-8',
      'content-length': String(body.byteLength),
      soapaction: `"${soapAction}"`,
      accept: 'text/xml',
    },
    body: pooledBody(body),
    stallTimeoutMs: exchange.stallTimeoutMs,
    signal: exchange.signal,
    failure: exchange.failure,
  });
  const contentLength = Number(response.headers['content-length'] ?? NaN);
  return {
    status: response.statusCode ?? 0,
    contentType: response.headers['content-type'] ?? '',
    ...(Number.isSafeInteger(contentLength) && contentLength >= 0 ? { contentLength } : {}),
    body: response,
  };
}

/** The request's bytes as a stream whose base64 buffers go back to their pool once the socket has taken them. */
function pooledBody(body: EncodedRequest): Readable {
  const pool = new BufferPool();
  return Object.assign(Readable.from(body.chunks(pool), { objectMode: false }), { releaseChunk: (chunk: Buffer) => pool.release(chunk) });
}

/** Reads the rest of a response without keeping it, so that its connection can be used again. */
export function discard(response: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    response.once('end', resolve).once('error', () => resolve()).once('close', resolve);
    response.resume();
  });
}
