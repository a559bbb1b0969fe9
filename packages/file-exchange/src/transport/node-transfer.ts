import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface TransferRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | Readable;
  /** Called once the body is being sent (a stream is piped): listeners added then cannot start its flow early. */
  onBodyPiped?: () => void;
  timeoutMs?: number;
}

/**
 * File bodies travel over node:http(s): its built-in HTTP parser keeps a transfer's memory to the data in flight,
 * where undici's WebAssembly parser adds about 37 MiB to the process on first use (measured, see the README).
 * Resolves with the response once its head arrived; the caller reads or discards the body.
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
    // The server may answer (and close) before it read everything, e.g. 503: the answer is what counts then.
    else pipeline(body, outgoing).catch((error: unknown) => (outgoing.destroyed ? undefined : reject(error)));
    request.onBodyPiped?.();
  });
}

export function plainHttpAgent(): HttpAgent {
  return new HttpAgent({ keepAlive: true, maxSockets: 4 });
}
