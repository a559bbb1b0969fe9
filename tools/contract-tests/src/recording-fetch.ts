import type { WireRequest, WireResponse } from './wire-check.js';

export interface RecordedExchange {
  request: WireRequest;
  response: WireResponse;
}

/**
 * A fetch for the clients' `fetch` option that keeps a copy of every request and response as sent and received, so
 * the tests can validate the wire and compare it with what the client returned. The client still gets the original
 * response object, untouched.
 */
export class RecordingFetch {
  readonly exchanges: RecordedExchange[] = [];

  readonly fetch = async (input: Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const requestText = request.body ? await request.clone().text() : '';
    const response = await globalThis.fetch(request);
    const responseText = await response.clone().text();
    this.exchanges.push({
      request: { method: request.method, url: request.url, headers: request.headers, text: requestText },
      response: { status: response.status, headers: response.headers, text: responseText },
    });
    return response;
  };

  /** The last exchange; fails loudly when the client sent nothing (an input error before any request). */
  last(): RecordedExchange {
    const exchange = this.exchanges.at(-1);
    if (!exchange) throw new Error('The client sent no request');
    return exchange;
  }

  clear(): void {
    this.exchanges.length = 0;
  }
}
