// A merchant's webhook endpoint on the Fetch API, served the way each runtime serves one: Bun.serve, Deno.serve, and
// Node's http behind a small Request/Response adapter (what Hono's or Next.js's Node servers do). It prints the port
// it listens on as one JSON line, then serves until it is killed: POST / receives notifications with
// createWebhookHandler, GET /events lists the events handed to onEvent.
import { createWebhookHandler, dedupeEvents } from '@paykit/payments/webhooks';

const { secret, username, password, maxBodyBytes } = JSON.parse(process.env.PAYKIT_SMOKE_WEBHOOK);
const events = [];
const receive = createWebhookHandler({
  secret,
  basicAuth: { username, password },
  maxBodyBytes,
  // A notification may come twice (the sandbox delivers one again when an attempt overlaps a retry): handled once.
  onEvent: dedupeEvents((event) => void events.push({ id: event.id, eventType: event.eventType, aliasId: event.data.id })),
});

function route(request) {
  if (request.method === 'GET' && new URL(request.url).pathname === '/events') return Response.json(events);
  return receive(request);
}

const announce = (port) => console.log(JSON.stringify({ port }));

if (globalThis.Bun) {
  announce(Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: route }).port);
} else if (globalThis.Deno) {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => announce(port) }, route);
} else {
  const { createServer } = await import('node:http');
  const { Readable } = await import('node:stream');
  const server = createServer(async (req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // The body stays a stream the handler pulls from: nothing is read unless the handler reads it.
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]])),
      ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
    });
    const response = await route(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
    // A body the handler refused unread is not read on: the connection goes.
    if (hasBody && !req.readableEnded) res.on('finish', () => req.destroy());
  });
  server.listen(0, '127.0.0.1', () => announce(server.address().port));
}
