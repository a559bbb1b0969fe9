import { rules } from '@paykit/payments/rules';
import { mayActFor } from '../http/auth.js';
import type { ApiResponse, HandlerContext, HandlerTable } from '../core.js';
import { page } from '../http/links.js';
import { found, newestFirst } from '../state/records.js';
import { matchesQuery } from './search.js';
import type { TransactionRecord } from '../state/state.js';
import { transactionModel, visibleTransaction } from './transactions.js';

/**
 * Every list of transactions, newest first, 20 per page with `next` and `prev` links (the recent list holds only the
 * 20 most recent). Lists hold what a restricted key may see. Each list applies its own criterion (card, bank account,
 * open pre-authorisation...) and then every query parameter as a criterion on the field of that name of the
 * transaction or of its request (`?settlementDate=2026-03-03`): the reference publishes the parameters of none of
 * these searches but the recent list's `supplierBusinessCode`, which reads the same way.
 */

type Criterion = (t: TransactionRecord, context: HandlerContext) => boolean;

/** The transactions the caller may see that meet the list's criterion and the query, newest first, as models. */
function matching(context: HandlerContext, criterion: Criterion): Record<string, unknown>[] {
  const { core } = context;
  const models: Record<string, unknown>[] = [];
  for (const t of newestFirst(core.state.transactions.values())) {
    if (!mayActFor(context.caller, t.supplierBusinessCode) || !criterion(t, context)) continue;
    const model = transactionModel(core, t, context.links);
    if (matchesQuery({ ...t.request, ...model }, context.query)) models.push(model);
  }
  return models;
}

function list(context: HandlerContext, path: string, criterion: Criterion): ApiResponse {
  return { status: 200, json: page(matching(context, criterion), context.links, path, context.query) };
}

const any: Criterion = () => true;

/** A PREAUTH that no later transaction (capture, cancellation...) has acted on. */
const openPreauth: Criterion = (t, context) =>
  t.transactionType === 'PREAUTH' &&
  t.status === 'Approved' &&
  ![...context.core.state.transactions.values()].some((other) => other.originalReceiptNumber === t.receiptNumber);

export const transactionListHandlers: HandlerTable = {
  listTransactions: (context) => {
    // The transaction report's layout is not published: the sandbox's report is empty.
    if (context.mediaType !== 'application/json') return { status: 200, text: '', contentType: context.mediaType };
    const recent = matching(context, any).slice(0, rules.recentTransactions.count);
    return { status: 200, json: { links: context.links.self('/transactions'), data: recent } };
  },
  listTransactionsForReferenceNumber: (context) => list(context, '/transactions/for-reference-number', any),
  listTransactionsForSettlementDate: (context) => list(context, '/transactions/for-settlement-date', any),
  listTransactionsForCreditCard: (context) =>
    list(context, '/transactions/for-credit-card', (t) => t.accountType === 'CREDIT_CARD'),
  listTransactionsForBankAccount: (context) =>
    list(context, '/transactions/for-bank-account', (t) => t.accountType === 'DIRECT_DEBIT'),
  listTransactionsForNzBankAccount: (context) =>
    list(context, '/transactions/for-nz-bank-account', (t) => t.accountType === 'DIRECT_DEBIT_NZ'),
  listSuspendedTransactions: (context) => list(context, '/transactions/suspended', (t) => t.status === 'Suspended'),
  // The sandbox's bank accounts return nothing: this list stays empty.
  listReturnedTransactions: (context) => list(context, '/transactions/returns', () => false),
  listOpenPreauths: (context) => list(context, '/transactions/open-preauths', openPreauth),
  listTransactionsForAccountToken: (context) => {
    const token = context.params.accountToken!;
    found(context.core.state.accounts.get(token), 'account', token);
    return list(context, `/transactions/for-account-token/${encodeURIComponent(token)}`, (t) => t.accountToken === token);
  },
  listTransactionRefunds: (context) => {
    const { receiptNumber } = visibleTransaction(context, context.params.receiptNumber!);
    return list(context, `/transactions/${encodeURIComponent(receiptNumber)}/refunds`, (t) => t.transactionType === 'REFUND' && t.originalReceiptNumber === receiptNumber);
  },
  // The sandbox never retries a transaction by itself.
  listTransactionRetries: (context) => {
    const { receiptNumber } = visibleTransaction(context, context.params.receiptNumber!);
    return list(context, `/transactions/${encodeURIComponent(receiptNumber)}/retries`, () => false);
  },
  listTransactionsForCustomer: (context) => {
    const id = context.params.customerId!;
    found(context.core.state.customers.get(id), 'customer', id);
    return list(context, `/customers/${encodeURIComponent(id)}/transactions`, (t) => t.customerId === id);
  },
  // The sandbox does not run schedules or batches: their transaction lists stay empty.
  listTransactionsForRecurringPayment: (context) => {
    const id = context.params.paymentScheduleId!;
    found(context.core.state.recurringPayments.get(id), 'recurring payment', id);
    return list(context, `/recurring-payments/${encodeURIComponent(id)}/transactions`, () => false);
  },
  listTransactionsForPaymentBatch: (context) => {
    const id = context.params.paymentBatchId!;
    found(context.core.state.paymentBatches.get(id), 'payment batch', id);
    return list(context, `/payment-batches/${encodeURIComponent(id)}/transactions`, () => false);
  },
};
