import { rules } from '../generated/rules.js';
import { mayActFor } from '../http/auth.js';
import type { ApiResponse, HandlerContext, HandlerTable } from '../core.js';
import { page } from '../http/links.js';
import { found, matchesQuery, newestFirst } from '../state/records.js';
import type { TransactionRecord } from '../state/state.js';
import { transactionModel, visibleTransaction } from './transactions.js';

/**
 * Every list of transactions, newest first, 20 per page with `next` and `prev` links (the recent list holds only the
 * 20 most recent). Lists hold what a restricted key may see. Searches whose parameters the reference does not publish
 * apply their own criterion (card, bank account, open pre-authorisation...) and then every query parameter that
 * names a field of the transaction or of its request (`?settlementDate=2026-03-03`).
 */

type Criterion = (t: TransactionRecord, context: HandlerContext) => boolean;

function list(context: HandlerContext, path: string, criterion: Criterion, options: { filterByQuery?: boolean; also?: string[] } = {}): ApiResponse {
  const { core } = context;
  const matching = newestFirst(core.state.transactions.values())
    .filter((t) => mayActFor(context.caller, t.supplierBusinessCode) && criterion(t, context))
    .map((t) => transactionModel(core, t, context.links))
    .filter((model) => {
      if (!options.filterByQuery) return true;
      const request = core.state.transactions.get(String(model.receiptNumber))!.request;
      return matchesQuery({ ...request, ...model }, context.query, options.also);
    });
  return { status: 200, json: page(matching, context.links, path, context.query) };
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
    const business = context.query.get('supplierBusinessCode');
    const recent = newestFirst(context.core.state.transactions.values())
      .filter((t) => mayActFor(context.caller, t.supplierBusinessCode) && (business === null || t.supplierBusinessCode === business))
      .slice(0, rules.recentTransactions.count)
      .map((t) => transactionModel(context.core, t, context.links));
    return { status: 200, json: { links: context.links.self('/transactions'), data: recent } };
  },
  listTransactionsForReferenceNumber: (context) => list(context, '/transactions/for-reference-number', any, { filterByQuery: true }),
  listTransactionsForSettlementDate: (context) => list(context, '/transactions/for-settlement-date', any, { filterByQuery: true }),
  listTransactionsForCreditCard: (context) =>
    list(context, '/transactions/for-credit-card', (t) => t.accountType === 'CREDIT_CARD', { filterByQuery: true }),
  listTransactionsForBankAccount: (context) =>
    list(context, '/transactions/for-bank-account', (t) => t.accountType === 'DIRECT_DEBIT', { filterByQuery: true }),
  listTransactionsForNzBankAccount: (context) =>
    list(context, '/transactions/for-nz-bank-account', (t) => t.accountType === 'DIRECT_DEBIT_NZ', { filterByQuery: true }),
  // The sandbox's fraud screening suspends nothing and its bank accounts return nothing: these lists stay empty.
  listSuspendedTransactions: (context) => list(context, '/transactions/suspended', () => false),
  listReturnedTransactions: (context) => list(context, '/transactions/returns', () => false),
  listOpenPreauths: (context) => list(context, '/transactions/open-preauths', openPreauth, { filterByQuery: true }),
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
