// `@paykit/payments/raw`: openapi-fetch's client on a secret client's transport, for what the grouped methods do not
// cover. An entry point of its own (one per concern, as Octokit's plugins), so that the main entry does not carry
// openapi-fetch: `createRawClient(createSecretClient({ ... }))`.
export { createRawClient, type RawClient } from './client/raw-client.js';
