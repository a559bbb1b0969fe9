// A merchant's webhook endpoint in a Cloudflare Worker: createWebhookHandler, given the request's ExecutionContext
// so that onEvent finishes inside waitUntil. POST / receives notifications, GET /events lists the events received by
// this isolate. The webhook helpers need node:crypto: the worker runs with the nodejs_compat flag.
import { env } from 'cloudflare:workers';
import { createWebhookHandler, dedupeEvents } from '@paykit/payments/webhooks';

const { secret, username, password, maxBodyBytes } = JSON.parse(env.PAYKIT_SMOKE_WEBHOOK);
const events = [];
const receive = createWebhookHandler({
  secret,
  basicAuth: { username, password },
  maxBodyBytes,
  // A notification may come twice (the sandbox delivers one again when an attempt overlaps a retry): handled once.
  onEvent: dedupeEvents((event) => void events.push({ id: event.id, eventType: event.eventType, aliasId: event.data.id })),
});

export default {
  fetch(request, _env, ctx) {
    if (request.method === 'GET' && new URL(request.url).pathname === '/events') return Response.json(events);
    return receive(request, ctx);
  },
};
