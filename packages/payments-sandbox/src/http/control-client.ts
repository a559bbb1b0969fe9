import createClient from 'openapi-fetch';
import { controlMethods } from '../generated/control/client.js';
import type { components, paths } from '../generated/control/openapi.js';
import { controlPrefix } from './control-prefix.js';

/**
 * The typed client of the sandbox's control interface (`/__sandbox/...`), for tests in any process and for the
 * sandbox's dashboard in the browser. Its methods are generated from the control contract
 * (specs/payments-sandbox-control): one per operation, named by its operationId. It imports no Node module, so a
 * browser bundle can take it (`@paykit/payments-sandbox/control-client`).
 */

type Schemas = components['schemas'];
export type SandboxClock = Schemas['Clock'];
export type AliasPayment = Schemas['AliasPayment'];
export type WebhookSubscriptionInput = Schemas['WebhookSubscriptionInput'];
export type WebhookSubscriptionInfo = Schemas['WebhookSubscription'];
export type WebhookDeliveryInfo = Schemas['WebhookDelivery'];
/** Every shape of the control contract, by its schema's name (`SandboxControlSchemas['TransactionPage']`). */
export type SandboxControlSchemas = Schemas;
/** One event of `GET /__sandbox/events` (the `data:` of each server-sent event, as JSON). */
export type SandboxEvent = Schemas['SandboxEvent'];
/** Where the control interface lives on the sandbox's origin; the event stream is `${controlPrefix}/events`. */
export { controlPrefix };

/** A refusal or failure of the control interface: its status and what it said. */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type SandboxControlOptions = {
  /** A fetch to use instead of the global one (it gets a `Request`). */
  fetch?: (request: Request) => Promise<Response>;
} & (
  | {
      /** The sandbox's control token (printed at start as `control token: ...`, or `sandbox.controlToken`). */
      token: string;
      session?: never;
    }
  | {
      /**
       * In the dashboard (a page the sandbox served): no token, the browser's session cookie of the sandbox's origin
       * instead (`credentials: 'same-origin'`).
       */
      session: true;
      token?: never;
    }
);

export type SandboxControl = ReturnType<typeof controlMethods>;

async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const said = (error as { error?: unknown } | undefined)?.error;
  throw new SandboxControlError(response.status, typeof said === 'string' ? said : `${response.status} ${response.statusText}`.trim());
}

/** A control client for the sandbox at `origin` (`http://127.0.0.1:4012`), with its control token. */
export function createSandboxControl(origin: string, options: SandboxControlOptions): SandboxControl {
  let base: URL;
  try {
    base = new URL(origin);
  } catch {
    throw new TypeError(`origin must be the sandbox's address, like http://127.0.0.1:4012; got ${JSON.stringify(origin)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`origin must be an http(s) address; got ${base.protocol}`);
  const session = options?.session === true && options.token === undefined;
  if (!session && (typeof options?.token !== 'string' || options.token === '')) {
    throw new TypeError(
      'createSandboxControl needs { token }: the control token the sandbox printed at start (sandbox.controlToken); or, in the dashboard, { session: true }',
    );
  }
  const client = createClient<paths>({
    baseUrl: base.origin + controlPrefix,
    ...(session ? { credentials: 'same-origin' as const } : { headers: { Authorization: `Bearer ${options.token}` } }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return controlMethods(client, answer);
}
