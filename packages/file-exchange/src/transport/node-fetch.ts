import type { IncomingHttpHeaders } from 'node:http';
import type { HttpsTransport } from './https-transport.js';

/** Statuses whose response has no body: a Response cannot be built with one. */
const withoutBody = new Set([101, 103, 204, 205, 304]);

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}

/** A small exchange's body went past its limit: the peer is not the service, or not behaving as one. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`the response body is larger than ${limitBytes} bytes`);
  }
}

export interface FetchThroughOptions {
  stallTimeoutMs: number | undefined;
  /** Ends the exchange; the Request's own signal is not read (see the client's fetchFor). */
  signal: AbortSignal;
  /** Larger bodies are refused as they arrive (BodyTooLargeError), never held whole. */
  maxBodyBytes: number;
}

/**
 * The `fetch` openapi-fetch is given: the request goes out over node:http(s) through the client's own agent (client
 * certificate, proxy tunnel), like the file transfers, so the client has one HTTP stack and never loads undici (about
 * 19 MiB of code and a WebAssembly parser of 37 MiB, see the README). Meant for the list and delete exchanges, whose
 * bodies are small: the response body is read whole, up to `maxBodyBytes`.
 */
export function fetchThrough(transport: HttpsTransport, options: FetchThroughOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const response = await transport.send({
      method: request.method,
      url: new URL(request.url),
      headers: Object.fromEntries(request.headers),
      ...(body === undefined ? {} : { body }),
      stallTimeoutMs: options.stallTimeoutMs,
      signal: options.signal,
    });
    const status = response.statusCode ?? 0;
    const declared = Number(response.headers['content-length']);
    if (declared > options.maxBodyBytes) {
      response.destroy();
      throw new BodyTooLargeError(options.maxBodyBytes);
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > options.maxBodyBytes) {
        response.destroy();
        throw new BodyTooLargeError(options.maxBodyBytes);
      }
      chunks.push(chunk);
    }
    return new Response(withoutBody.has(status) ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage ?? '', headers: headersOf(response.headers) });
  };
}
