// A merchant's ES module, run as it is by Node, Bun and Deno: the clients are made once, when the module loads.
import { createSecretClient } from '@paykit/payments';
import { createPublishableClient } from '@paykit/payments/publishable';
import { runStep, stepNames } from './steps.mjs';
import { webhookStep } from './webhook.mjs';

const { baseUrl, secretKey, publishableKey, timeoutMs, customerNumber } = JSON.parse(process.env.PAYKIT_SMOKE);
const clients = {
  secret: createSecretClient({ baseUrl, apiKey: secretKey, timeoutMs }),
  publishable: createPublishableClient({ baseUrl, apiKey: publishableKey, timeoutMs }),
};

const outcomes = {};
for (const name of stepNames) outcomes[name] = await runStep(clients, name, customerNumber);
outcomes.webhook = webhookStep();
console.log(JSON.stringify(outcomes));
