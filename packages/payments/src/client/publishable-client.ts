import { publishableKeyOperations } from '../generated/operations.js';
import type { ClientOptions } from './config.js';
import { bindOperations, createCore, describeClient, type RequestCheck } from './core.js';
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

/** A client for browser pages and apps, holding a publishable key. */
export function createPublishableClient(options: PublishableClientOptions): PublishableClient {
  const core = createCore(options, options.check);
  return describeClient(bindOperations(core, publishableKeyOperations), 'PublishablePaymentsClient', core.baseUrl);
}
