import { accountHandlers } from './accounts.js';
import { aliasHandlers } from './aliases.js';
import type { HandlerContext, HandlerTable } from '../core.js';
import { customerHandlers, customerNumberClaim } from './customers.js';
import { facilityHandlers } from './facility.js';
import { mandateAgreementHandlers } from './mandate-agreements.js';
import { paymentFileHandlers } from './payment-files.js';
import { recurringPaymentHandlers } from './recurring-payments.js';
import { tokenHandlers } from './tokens.js';
import { transactionListHandlers } from './transaction-lists.js';
import { transactionHandlers } from './transactions.js';

/** Every operation's handler, by the operationId the contract gives it (a test checks that none is missing). */
export const operationHandlers: HandlerTable = {
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
};

/** What a request claims while it is processed, by operationId: "two customers with one number created at once" get 409. */
export const operationClaims: Record<string, (context: Pick<HandlerContext, 'body'>) => string | undefined> = {
  createCustomer: customerNumberClaim,
};
