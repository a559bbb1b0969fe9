import { publishableKeyOperations } from '../generated/operations.js';
import type { ClientOptions } from './config.js';
import { errorFromResponse } from '../errors/payments-error.js';
import { bindOperations, createCore, describeClient, type Finish, type RequestCheck } from './core.js';
import type { GroupedMethods } from './method-types.js';

/** Only the operations whose security is the publishable key: calling any other one does not compile. */
export type PublishableClient = GroupedMethods<typeof publishableKeyOperations>;

export interface PublishableClientOptions extends ClientOptions {
  /**
   * Checks requests against the spec's schemas before sending them. Off by default to keep the browser bundle
   * small; pass `publishableRequestCheck()` from `@paykit/payments/validation` to turn it on.
   */
  check?: RequestCheck;
}

/**
 * A JSON success without what every answer of the operation has (a page from something in between, `{}`) is a
 * `protocol` error, not a token; a POST's outcome is then unknown. The secret client's check (answer-check.ts) also
 * names a reused key in its message; this shorter one keeps the browser bundle within its 6 kB.
 */
const finishAnswer: Finish = (_core, { method, requires }, answer, url) => {
  const { data, status, idempotencyKey, attempts } = answer as typeof answer & { data: Record<string, unknown> };
  if (data?.constructor !== Object || requires?.some((name) => !(name in data))) {
    throw errorFromResponse({ kind: 'protocol', status, method, url, body: data, idempotencyKey, attempts, unknown: method !== 'GET' });
  }
  return answer;
};

/** A client for browser pages and apps, holding a publishable key. */
export function createPublishableClient(options: PublishableClientOptions): PublishableClient {
  const core = createCore(options, options.check, finishAnswer);
  return describeClient(bindOperations(core, publishableKeyOperations), 'PublishablePaymentsClient', core.baseUrl);
}
