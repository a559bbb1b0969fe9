// The control client as the sandbox's dashboard uses it in a browser page the sandbox served: no token, the session
// cookie of the page's origin; its types and the event stream's address from the same entry point.
import { controlPrefix, createSandboxControl, type SandboxControlSchemas, type SandboxEvent } from '@paykit/payments-sandbox/control-client';

export async function newestDeclined(origin: string): Promise<SandboxControlSchemas['TransactionPage']> {
  const control = createSandboxControl(origin, { session: true });
  return control.listTransactions({ status: ['Declined'], limit: 10 });
}

export const eventsAddress = (origin: string) => `${origin}${controlPrefix}/events`;
export const kindOf = (event: SandboxEvent): string => event.kind;

// @ts-expect-error a status the contract does not list
createSandboxControl('http://127.0.0.1:4012', { session: true }).listTransactions({ status: ['Lost'] });

// @ts-expect-error the token or the session, not both
createSandboxControl('http://127.0.0.1:4012', { session: true, token: 'ctl_sandbox_x' });
