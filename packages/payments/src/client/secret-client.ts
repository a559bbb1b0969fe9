import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import { secretKeyOperations, type OperationSpec } from '../generated/operations.js';
import { secretKeyValidation } from '../generated/validation.js';
import { createRequestCheck, type RequestCheckOptions } from '../validation/request-check.js';
import type { ClientOptions } from './config.js';
import { bindOperations, createCore, describeClient, pathParameterError, validSegment, type RequestCheck } from './core.js';
import { checkAnswer } from './answer-check.js';
import { keyOfAnswer, transportAsFetch } from './transport.js';
import { isJson, readJson } from './response-body.js';
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
  const core = createCore(options, check || undefined, paginate, checkAnswer);
  const raw = createClient<paths>({ baseUrl: core.baseUrl, fetch: transportAsFetch(core.transport) });
  // The raw client refuses what the methods refuse: `.` and `..` as path parameters (before sending), and a success
  // answer that is not what the operation returns. Operations by method and path template, as openapi-fetch names them.
  const operations = new Map(Object.values(secretKeyOperations as Record<string, OperationSpec>).map((spec) => [`${spec.method} ${spec.path}`, spec]));
  raw.use({
    onRequest({ schemaPath, params }) {
      for (const [name, value] of Object.entries(params.path ?? {})) if (!validSegment(value)) throw pathParameterError(schemaPath, name, value);
    },
    async onResponse({ request, schemaPath, response }) {
      const operation = operations.get(`${request.method} ${schemaPath}`);
      if (operation && response.ok && isJson(request.headers.get('accept') ?? 'application/json')) {
        checkAnswer(operation, request.method, request.url, response.status, await readJson(response.clone()), keyOfAnswer.get(response));
      }
    },
  });
  const client = Object.assign(bindOperations(core, secretKeyOperations), { raw });
  return describeClient(client, 'PaymentsClient', core.baseUrl);
}
