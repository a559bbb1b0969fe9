// The control interface, as the dashboard calls it: the package's own control client (its methods generated from the
// control contract, specs/payments-sandbox-control), on the page's origin, in session mode: no token, the browser
// sends the session cookie the sign-in set (HttpOnly: this script never sees it).
import { createSandboxControl, SandboxControlError, type SandboxControlSchemas } from '../../src/http/control-client.js';

export type Schemas = SandboxControlSchemas;
export type Transaction = Schemas['Transaction'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type Fault = Schemas['Fault'];
export type RecordedRequest = Schemas['RecordedRequest'];

export { SandboxControlError as ControlError };

export const control = createSandboxControl(location.origin, { session: true });
