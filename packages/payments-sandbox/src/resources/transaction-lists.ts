import { rules } from '../generated/rules.js';
import { mayActFor } from '../handler-context.js';
import type { ApiResponse, HandlerContext, HandlerTable } from '../handler-context.js';
import { pageLinks, pageOf, pageParameter } from '../rules/links.js';
import { found } from '../state/records.js';
import { transactionsNewestFirst } from './newest-first-index.js';
import { matchesValue } from './search.js';
import type { TransactionRecord } from '../state/state.js';
import { transactionField, transactionModel, visibleTransaction } from './transactions.js';

/**
 * Every list of transactions, newest first, 20 per page with `next` and `prev` links (the recent list holds only the
 * 20 most recent). Lists hold what a restricted key may see. Each list applies its own criterion (card, bank account,
 * open pre-authorisation...) and then every query parameter as a criterion on the field of that name of the
 * transaction or of its request (`?settlementDate=2026-03-03`): the reference publishes the parameters of none of
 * these searches but the recent list's `supplierBusinessCode`, which reads the same way.
 */

type Criterion = (t: TransactionRecord) => boolean;

/**
 * The transactions the caller may see that meet the list's criterion and the query, newest first, from the
 * `skip`+1-th to at most `take`, as models, and whether more follow. Criterion and query are read on the records
 * (`transactionField`), so only the transactions returned are modelled, and the reading stops at the first match
 * after the page.
 */
function matching(context: HandlerContext, criterion: Criterion, skip: number, take: number): { data: Record<string, unknown>[]; more: boolean } {
  const { core, links } = context;
  const now = core.clock.now();
  const criteria = [...context.query].filter(([name]) => name !== pageParameter).map(([name, value]) => ({ read: transactionField(core, links, now, name), value }));
  const selected: TransactionRecord[] = [];
  let matched = 0;
  let more = false;
  for (const t of transactionsNewestFirst(core.state.transactions)) {
    if (!mayActFor(context.caller, t.supplierBusinessCode) || !criterion(t)) continue;
    if (!criteria.every(({ read, value }) => matchesValue(read(t), value))) continue;
    if (matched++ < skip) continue;
    if (selected.length === take) {
      more = true;
      break;
    }
    selected.push(t);
  }
  return { data: selected.map((t) => transactionModel(core, t, links, now)), more };
}

function list(context: HandlerContext, path: string, criterion: Criterion): ApiResponse {
  const { number, skip, size } = pageOf(context.query);
  const { data, more } = matching(context, criterion, skip, size);
  return { status: 200, json: { links: pageLinks(context.links, path, context.query, number, more), data } };
}

const any: Criterion = () => true;

/** A PREAUTH that no later transaction (capture, cancellation...) has acted on. */
function openPreauth(context: HandlerContext): Criterion {
  const actedOn = new Set<string | undefined>();
  for (const other of context.core.state.transactions.values()) actedOn.add(other.originalReceiptNumber);
  return (t) => t.transactionType === 'PREAUTH' && t.status === 'Approved' && !actedOn.has(t.receiptNumber);
}

export const transactionListHandlers: HandlerTable = {
  listTransactions: (context) => {
    // The transaction report's layout is not published: the sandbox's report is empty.
    if (context.mediaType !== 'application/json') return { status: 200, text: '', contentType: context.mediaType };
    const { data } = matching(context, any, 0, rules.recentTransactions.count);
    return { status: 200, json: { links: context.links.self('/transactions'), data } };
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
  listOpenPreauths: (context) => list(context, '/transactions/open-preauths', openPreauth(context)),
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
