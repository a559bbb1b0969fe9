import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface TransferRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | Readable;
  /** Called once the body is being sent (a stream is piped): listeners added then cannot start its flow early. */
  onBodyPiped?: () => void;
  timeoutMs?: number;
}

/**
 * Every request of the client travels over node:http(s): its built-in HTTP parser keeps a transfer's memory to the
 * data in flight, where undici's WebAssembly parser adds about 37 MiB to the process on first use (measured, see the
 * README). Resolves with the response once its head arrived; the caller reads or discards the body.
 */
export function transfer(agent: HttpsAgent | HttpAgent, request: TransferRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(request.url, { agent, method: request.method, headers: request.headers }, resolve);
    outgoing.once('error', reject);
    if (request.timeoutMs !== undefined) {
      outgoing.setTimeout(request.timeoutMs, () => {
        outgoing.destroy(Object.assign(new Error(`no progress for ${request.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      });
    }
    const body = request.body;
    if (body === undefined) outgoing.end();
    else if (Buffer.isBuffer(body)) outgoing.end(body);
    else {
      pipeline(body, outgoing).catch((error: unknown) => {
        // A body that failed (a file that cannot be read, a stream of the wrong length) is the cause, not the
        // connection reset that follows. Otherwise the server may have answered (and closed) before it read
        // everything, e.g. 503: the answer is what counts then.
        if (body.errored) reject(body.errored);
        else if (!outgoing.destroyed) reject(error);
      });
    }
    request.onBodyPiped?.();
  });
}

export function plainHttpAgent(): HttpAgent {
  return new HttpAgent({ keepAlive: true, maxSockets: 4 });
}
