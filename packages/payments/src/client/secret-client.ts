import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import { secretKeyOperations } from '../generated/operations.js';
import { secretKeyValidation } from '../generated/validation.js';
import { createRequestCheck, type RequestCheckOptions } from '../validation/request-check.js';
import type { ClientOptions } from './config.js';
import { bindOperations, createCore, describeClient, type RequestCheck } from './core.js';
import { transportAsFetch } from './transport.js';
import type { GroupedMethods } from './method-types.js';
import { paginate } from './page.js';

export type SecretOperationMethods = GroupedMethods<typeof secretKeyOperations>;

/** Every secret-key operation, grouped by resource, plus the raw openapi-fetch client for anything else. */
export type PaymentsClient = SecretOperationMethods & {
  /** openapi-fetch's client on the same transport (key, headers, idempotency, retries, timeout); never throws on HTTP errors. */
  readonly raw: Client<paths>;
};

export interface PaymentsClientOptions extends ClientOptions, RequestCheckOptions {
  /**
   * Checks every request against the spec's schemas before sending it (on by default). `false` turns the checks
   * off; a function replaces them.
   */
  check?: RequestCheck | false;
}

/** The server-side client, holding a secret key. */
export function createSecretClient(options: PaymentsClientOptions): PaymentsClient {
  const check = options.check ?? createRequestCheck(secretKeyValidation, options);
  const core = createCore(options, check || undefined, paginate);
  const raw = createClient<paths>({ baseUrl: core.baseUrl, fetch: transportAsFetch(core.transport) });
  const client = Object.assign(bindOperations(core, secretKeyOperations), { raw });
  return describeClient(client, 'PaymentsClient', core.baseUrl);
}
