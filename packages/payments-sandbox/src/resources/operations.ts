import { accountHandlers } from './accounts.js';
import { aliasHandlers } from './aliases.js';
import type { HandlerContext, HandlerTable, SandboxCore } from '../handler-context.js';
import { describeUnpublished, unpublishedValues } from '../contract/published-values.js';
import { customerHandlers, customerNumberClaim } from './customers.js';
import { facilityHandlers } from './facility.js';
import { mandateAgreementHandlers } from './mandate-agreements.js';
import { paymentFileHandlers } from './payment-files.js';
import { recurringPaymentHandlers } from './recurring-payments.js';
import { tokenHandlers } from './tokens.js';
import { transactionListHandlers } from './transaction-lists.js';
import { transactionHandlers } from './transactions.js';

/** The header that flags request values the contract does not publish (OUR assumption `unpublished-request-values`). */
export const warningHeader = 'Paykit-Sandbox-Warning';

const logged = new WeakMap<SandboxCore, Set<string>>();

/**
 * A request value outside a published list is accepted (the service has uses whose values the reference does not
 * give) and flagged: in the answer's warning header every time, and in one log line per value and sandbox.
 */
function flaggingUnpublishedValues(handlers: HandlerTable): HandlerTable {
  return Object.fromEntries(
    Object.entries(handlers).map(([operationId, handler]) => [
      operationId,
      (context: HandlerContext) => {
        const response = handler(context);
        const flagged = unpublishedValues(context.operation, context.body).map(describeUnpublished);
        if (!flagged.length) return response;
        const seen = logged.get(context.core) ?? new Set<string>();
        logged.set(context.core, seen);
        for (const warning of flagged) {
          if (seen.has(warning)) continue;
          seen.add(warning);
          console.warn(`payments sandbox: ${operationId}: ${warning}; accepted and flagged in the ${warningHeader} header.`);
        }
        return { ...response, headers: { ...response.headers, [warningHeader]: flagged.join('; ') } };
      },
    ]),
  );
}

/** Every operation's handler, by the operationId the contract gives it (a test checks that none is missing). */
export const operationHandlers: HandlerTable = flaggingUnpublishedValues({
  ...facilityHandlers,
  ...tokenHandlers,
  ...transactionHandlers,
  ...transactionListHandlers,
  ...customerHandlers,
  ...accountHandlers,
  ...recurringPaymentHandlers,
  ...aliasHandlers,
  ...paymentFileHandlers,
  ...mandateAgreementHandlers,
});

/** What a request claims while it is processed, by operationId: "two customers with one number created at once" get 409. */
export const operationClaims: Record<string, (context: Pick<HandlerContext, 'body'>) => string | undefined> = {
  createCustomer: customerNumberClaim,
};
