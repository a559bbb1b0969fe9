import { createDelivery, readCapped, Refusal, type WebhookDeliveryOptions } from './delivery.js';

/**
 * What a platform lends a handler to finish work after its response: Cloudflare's `ExecutionContext` (the third
 * argument of a Worker's `fetch`), Vercel's and Next.js's `waitUntil`/`after`, Deno Deploy's. Without one, the work
 * after the response runs as any promise does: fine on a long-running server (Node, Bun.serve, Deno.serve), frozen
 * or dropped on a serverless platform once the response has gone.
 */
export interface WebhookHandlerContext {
  waitUntil(work: Promise<unknown>): void;
}

export type WebhookFetchHandlerOptions = WebhookDeliveryOptions;

/** A Fetch API handler: Next.js route handlers, Hono, Cloudflare Workers, Bun.serve, Deno.serve. */
export type WebhookFetchHandler = (request: Request, context?: WebhookHandlerContext) => Promise<Response>;

/** The chunks of a body stream; leaving early (a body too large) cancels the stream: nothing more is read. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const read = await reader.read();
      if ((done = read.done)) return;
      yield read.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

const empty = (status: number, headers?: Record<string, string>) => new Response(null, { status, headers });

/**
 * The receiver for runtimes that speak the Fetch API, with the same rules as `createWebhookReceiver`: no body is read
 * before the Basic credentials (401) and the signature header's form and timestamp (400) have passed, and none past
 * `maxBodyBytes` (413, from its Content-Length or as it arrives); an authentic notification is answered 200 at once
 * and its event handed over after, within the platform's `waitUntil` when the second argument gives one. With
 * `acknowledge: 'after-event'` the 200 waits for `onEvent` (500 if it throws, so that the service delivers it again).
 *
 * ```ts
 * export default { fetch: (request, env, ctx) => receive(request, ctx) };   // Cloudflare Workers
 * export const POST = (request: Request) => receive(request, { waitUntil: after }); // Next.js (next/server's after)
 * Bun.serve({ fetch: (request) => receive(request) });
 * ```
 */
export function createWebhookHandler(options: WebhookFetchHandlerOptions): WebhookFetchHandler {
  const delivery = createDelivery(options);
  return async (request, context) => {
    let body: Uint8Array;
    try {
      const parsed = delivery.checkHeaders((name) => request.headers.get(name));
      body = request.body ? await readCapped(chunksOf(request.body), delivery.maxBodyBytes) : new Uint8Array();
      delivery.checkBody(body, parsed);
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(400, error);
      // A body refused before it was read is not read at all (a stranger may send gigabytes).
      if (!request.bodyUsed) void request.body?.cancel().catch(() => undefined);
      if (refusal.error !== undefined) delivery.report(refusal.error);
      if (refusal.status === 401) return empty(401, { 'WWW-Authenticate': 'Basic' });
      return refusal.status === 400 ? new Response(refusal.text || 'The notification could not be read.', { status: 400 }) : empty(refusal.status);
    }
    if (delivery.afterEvent) {
      try {
        await delivery.handOver(body);
      } catch (error) {
        delivery.report(error);
        return empty(500);
      }
      return empty(200);
    }
    // The event is handed over once the handler has returned its answer (a task later, when the platform has it), as
    // the Node receiver does once its answer has been sent.
    const handing = new Promise((resolve) => setTimeout(resolve, 0)).then(() => delivery.handOver(body));
    context?.waitUntil(handing);
    return empty(200);
  };
}
