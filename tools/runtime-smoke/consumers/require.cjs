// A merchant's CommonJS module: the package is ES modules only, loaded with require() (Node 20.19 and later).
const { createSecretClient } = require('@paykit/payments');
const { createPublishableClient } = require('@paykit/payments/publishable');
// The consumers' shared ES modules, required the same way.
const { runStep, stepNames } = require('./steps.mjs');
const { webhookStep } = require('./webhook.mjs');

const { baseUrl, secretKey, publishableKey, timeoutMs, customerNumber } = JSON.parse(process.env.PAYKIT_SMOKE);
const clients = {
  secret: createSecretClient({ baseUrl, apiKey: secretKey, timeoutMs }),
  publishable: createPublishableClient({ baseUrl, apiKey: publishableKey, timeoutMs }),
};

(async () => {
  const outcomes = {};
  for (const name of stepNames) outcomes[name] = await runStep(clients, name, customerNumber);
  outcomes.webhook = webhookStep();
  console.log(JSON.stringify(outcomes));
})();
