// A merchant's Cloudflare Worker: the clients are made at module scope, once per isolate, and every request the
// worker serves reuses them. `GET /<step>` runs one step, so that each call belongs to a different request.
import { env } from 'cloudflare:workers';
import { createSecretClient } from '@paykit/payments';
import { createPublishableClient } from '@paykit/payments/publishable';
import { runStep } from './steps.mjs';

const { baseUrl, secretKey, publishableKey, timeoutMs, customerNumber } = JSON.parse(env.PAYKIT_SMOKE);
const clients = {
  secret: createSecretClient({ baseUrl, apiKey: secretKey, timeoutMs }),
  publishable: createPublishableClient({ baseUrl, apiKey: publishableKey, timeoutMs }),
};

export default {
  async fetch(request) {
    const step = new URL(request.url).pathname.slice(1);
    return Response.json(await runStep(clients, step, customerNumber));
  },
};
