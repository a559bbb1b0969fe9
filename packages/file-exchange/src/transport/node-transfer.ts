import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ClientRequest } from 'node:http';
import { StallGuard } from '../core/call-signal.js';
import { isReleasingBody, uploadBytesInFlight, uploadChunkBytes } from './reused-buffer-file-reader.js';

export interface TransferRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | Readable;
  /** Called once the body is being sent (a stream is piped): listeners added then cannot start its flow early. */
  onBodyPiped?: () => void;
  /** No byte sent or received on the connection for this long, in any phase (body out, head, body in): a stall. */
  stallTimeoutMs?: number | undefined;
  /** Ends the request in any phase, the reading of the response body included. */
  signal?: AbortSignal | undefined;
  /**
   * The error a stall or an abort ends the request and its body with (given the stall's error or the signal's
   * reason): so that whoever reads the body, the caller of `download` included, gets the client's typed error.
   */
  failure?: (error: unknown) => Error;
}

/**
 * Bytes given in one piece are handed to the socket a file upload's chunk at a time. The socket's idle timer (the
 * stall timeout) counts a write when it is done, that is when its last byte reached the kernel: a body written in one
 * piece would show no progress until its end, and a large one over a slow but live link would be taken for a stall.
 */
function* slices(bytes: Buffer): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += uploadChunkBytes) yield bytes.subarray(start, start + uploadChunkBytes);
}

/**
 * Every request of the client travels over node:http(s): its built-in HTTP parser keeps a transfer's memory to the
 * data in flight, where undici's WebAssembly parser adds about 37 MiB to the process on first use (measured, see the
 * README). Resolves with the response once its head arrived; the caller reads or discards the body.
 *
 * The stall timeout is one timer (StallGuard, on the global clock, so that tests drive it with fake timers), touched
 * when the connection is made and its TLS handshake done, when the socket has taken each piece of the body (the
 * write's callback: the kernel has the bytes), and at each piece of the response read from the socket. Node's socket
 * idle timer is not used: it lets a write still queued count as progress once more, so a server that stops reading
 * an upload took twice the timeout to be caught.
 */
export function transfer(agent: HttpsAgent | HttpAgent, request: TransferRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    const outgoing = send(request.url, { agent, method: request.method, headers: request.headers }, (incoming) => {
      response = incoming;
      resolve(incoming);
    });
    // A connection kept open since an earlier request that fails before a byte of the answer came was most likely
    // closed by the server meanwhile (an idle keep-alive connection): said so, the try is made again at once on a new
    // connection (see withRetries) rather than after the retry wait, and without blaming the certificate.
    let answered = false;
    outgoing.once('error', (error) => reject(outgoing.reusedSocket && !answered ? Object.assign(error, { reusedConnection: true }) : error));
    // The body's reader is given the stall or the abort itself, not the reset that destroying the request shows it.
    const end = (cause: unknown) => {
      const error = request.failure?.(cause) ?? (cause instanceof Error ? cause : new Error(String(cause)));
      response?.destroy(error);
      outgoing.destroy(error);
    };
    const guard = new StallGuard(request.stallTimeoutMs, end);
    const touch = () => guard.touch();
    const read = () => {
      answered = true;
      guard.touch();
    };
    let socket: Socket | undefined;
    outgoing.once('socket', (assigned: Socket) => {
      socket = assigned;
      // A connection of the agent's pool was used before: its handshake is long done.
      if (assigned.connecting) assigned.once('connect', touch).once('secureConnect', touch);
      assigned.on('data', read);
    });
    const signal = request.signal;
    const onAbort = () => end(signal!.reason);
    // Until the exchange is over (the response read or the connection gone): no timer or listener is left behind.
    outgoing.once('close', () => {
      guard.stop();
      socket?.off('data', read);
      signal?.removeEventListener('abort', onAbort);
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const body = request.body;
    if (body === undefined) outgoing.end();
    else if (Buffer.isBuffer(body) && body.length <= uploadChunkBytes) outgoing.end(body, touch);
    else {
      const stream = Buffer.isBuffer(body) ? Readable.from(slices(body), { objectMode: false }) : body;
      sendBody(stream, outgoing, touch).catch((error: unknown) => {
        // A body that failed (a file that cannot be read, a stream of the wrong length) is the cause, not the
        // connection reset that follows. Otherwise the server may have answered (and closed) before it read
        // everything, e.g. 503: the answer is what counts then.
        if (stream.errored) reject(stream.errored);
        else if (!outgoing.destroyed) reject(error);
      });
    }
    request.onBodyPiped?.();
  });
}

/**
 * Sends a stream body: each chunk is written with a callback, which tells `onTaken` (the stall timeout's progress)
 * and releases the chunk, when the body reads into buffers it uses again, once the socket took it. The flow pauses at
 * `uploadBytesInFlight` bytes not yet taken (two file chunks, or 32 pieces of a pipe), not at the request's 16 KiB
 * high-water mark: waiting for 'drain' after each 1 MiB chunk left the socket idle while the next chunk was read (in
 * the package's transfer bench: 2.25 s for 1 GiB against 1.73 s for its node:https upload with four chunks in
 * flight). Fewer bytes in flight cost a pipe more CPU (1.27 s per GiB at 256 KiB, 1.12 s at 2 MiB). Fails as pipeline does: with the body's error (the request is destroyed with it); a request that closes
 * first ends the body (its answer, or the abort, is what counts then).
 */
function sendBody(body: Readable, outgoing: ClientRequest, onTaken: () => void): Promise<void> {
  const release = isReleasingBody(body) ? (chunk: Buffer) => body.releaseChunk(chunk) : undefined;
  return new Promise((resolve, reject) => {
    let inFlight = 0;
    const onData = (chunk: Buffer) => {
      const size = chunk.length;
      inFlight += size;
      outgoing.write(chunk, (error) => {
        inFlight -= size;
        if (!error) {
          onTaken();
          release?.(chunk);
        }
        if (inFlight < uploadBytesInFlight && body.isPaused()) body.resume();
      });
      if (inFlight >= uploadBytesInFlight) body.pause();
    };
    const onClose = () => {
      if (body.readableEnded) return;
      body.destroy();
      reject(new Error('the request closed before its body was sent'));
    };
    body.on('data', onData);
    body.once('end', () => {
      outgoing.off('close', onClose);
      outgoing.end();
      resolve();
    });
    body.once('error', (error) => {
      outgoing.off('close', onClose);
      outgoing.destroy(error);
      reject(error);
    });
    outgoing.once('close', onClose);
  });
}

export function plainHttpAgent(): HttpAgent {
  return new HttpAgent({ keepAlive: true, maxSockets: 4 });
}
