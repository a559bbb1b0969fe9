// The control interface, as the dashboard calls it: the methods generated from the control contract
// (specs/payments-sandbox-control), over openapi-fetch, on the page's own origin. No token: the browser sends the
// session cookie the sign-in set (HttpOnly, so this script never sees it).
import createClient from 'openapi-fetch';
import { controlMethods } from '../../src/generated/control/client.js';
import type { components, paths } from '../../src/generated/control/openapi.js';
import { controlOperationTable } from '../../src/generated/control/operations.js';

export type Schemas = components['schemas'];
export type Transaction = Schemas['Transaction'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookSubscription = Schemas['WebhookSubscription'];
export type FaultRule = Schemas['FaultRule'];
export type Fault = Schemas['Fault'];

/** A refusal or failure of the control interface. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where the control interface is, from the contract (the page lives under it, at `<base>/ui/`). */
export const controlBase = new URL(controlOperationTable.basePath, location.origin).href;

async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw new ControlError(0, `the sandbox did not answer (${String(error)})`);
  }
  const { data, error, response } = result;
  if (response.ok) return data as T;
  const said = (error as { error?: unknown } | undefined)?.error;
  throw new ControlError(response.status, typeof said === 'string' ? said : `${response.status} ${response.statusText}`.trim());
}

export const control = controlMethods(createClient<paths>({ baseUrl: controlBase, credentials: 'same-origin' }), answer);
export type Control = typeof control;
