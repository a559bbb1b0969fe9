import { secretKeyOperations } from '../generated/operations.js';
import { secretKeyValidation } from '../generated/validation.js';
import { createRequestCheck, type RequestCheckOptions } from '../validation/request-check.js';
import type { ClientOptions } from './config.js';
import { bindOperations, createCore, describeClient, type ClientCore, type Finish, type RequestCheck } from './core.js';
import { checkAnswer } from './answer-check.js';
import type { GroupedMethods } from './method-types.js';
import { paginate } from './page.js';

export type SecretOperationMethods = GroupedMethods<typeof secretKeyOperations>;

/**
 * Every secret-key operation, grouped by resource. For anything else, `createRawClient(client)` from
 * `@paykit/payments/raw` gives openapi-fetch's client on the same transport.
 */
export type PaymentsClient = SecretOperationMethods;

/**
 * The core (transport, base address) of each secret client, for `createRawClient`: kept off the client object, so
 * that nothing printed or spread from a client reaches it. The publishable client is never in it: no raw client can
 * bypass the key split.
 */
export const secretClientCores = new WeakMap<object, ClientCore>();

export interface PaymentsClientOptions extends ClientOptions, RequestCheckOptions {
  /**
   * Checks every request against the spec's schemas before sending it (on by default). `false` turns the checks
   * off; a function replaces them.
   */
  check?: RequestCheck | false;
}

/** A JSON success is the operation's answer (else a `protocol` error), and a list's is the first of its pages. */
const finishAnswer: Finish = (core, operation, outcome, url, signal) => {
  checkAnswer(operation, operation.method, url, outcome.status, outcome.data, outcome.idempotencyKey);
  return operation.list ? paginate(core, outcome, url, signal) : outcome;
};

/** The server-side client, holding a secret key. */
export function createSecretClient(options: PaymentsClientOptions): PaymentsClient {
  const check = options.check ?? createRequestCheck(secretKeyValidation, options);
  const core = createCore(options, check || undefined, finishAnswer);
  const client = describeClient(bindOperations(core, secretKeyOperations), 'PaymentsClient', core.baseUrl);
  secretClientCores.set(client, core);
  return client;
}
