// The transactions list's search and filters: kept in the address (`#/transactions?status=Pending&q=...`), sent to
// `listTransactions`, which searches on the sandbox (newest first, a page at a time).
import type { Transaction } from './api.js';
import type { ListTransactionsQuery } from './types.js';
import { isRecord } from './format.js';

export const pageSize = 50;

/** The names of the address's filter fields: the query parameters of `listTransactions`, dates as days. */
export const filterFields = ['q', 'status', 'transactionType', 'amountMin', 'amountMax', 'customerId', 'receiptNumber', 'from', 'to'] as const;

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export const customerOf = (t: Transaction): string =>
  text(t.customerId) || (isRecord(t.aliasAccount) ? text(t.aliasAccount.customerId) : '') || (isRecord(t.account) ? text(t.account.customerId) : '');

export const typeOf = (t: Transaction): string => text(t.transactionType);

/** The query of `listTransactions` an address names. A day `to` includes the whole day (UTC, as the sandbox's times). */
export function queryFromRoute(route: URLSearchParams): ListTransactionsQuery {
  const word = (name: string) => route.get(name)?.trim() || undefined;
  const number = (name: string) => {
    const value = word(name);
    return value === undefined || Number.isNaN(Number(value)) ? undefined : Number(value);
  };
  const day = (name: string) => (/^\d{4}-\d{2}-\d{2}$/.test(word(name) ?? '') ? word(name) : undefined);
  const from = day('from');
  const to = day('to');
  const status = route.getAll('status').filter(Boolean) as NonNullable<ListTransactionsQuery['status']>;
  const query: ListTransactionsQuery = {
    q: word('q'),
    status: status.length ? status : undefined,
    transactionType: word('transactionType'),
    amountMin: number('amountMin'),
    amountMax: number('amountMax'),
    customerId: word('customerId'),
    receiptNumber: word('receiptNumber'),
    createdFrom: from ? `${from}T00:00:00Z` : undefined,
    createdTo: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString() : undefined,
    cursor: word('cursor'),
    limit: pageSize,
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as ListTransactionsQuery;
}
