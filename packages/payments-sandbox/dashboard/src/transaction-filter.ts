// The transactions list's search and filters, on the records the control interface returned: a pure function, so
// that a search over 50,000 records is one pass without a request.
import type { Transaction } from './api.js';
import { isRecord } from './format.js';

export interface TransactionFilter {
  /** Free text: matches the receipt number, the customer, an alias, the comment... */
  q?: string;
  status?: string;
  type?: string;
  /** Amount bounds (the total, in the transaction's currency). */
  min?: number;
  max?: number;
  customer?: string;
  /** The receipt number, or the original receipt number of a refund or void. */
  reference?: string;
  /** Dates (`YYYY-MM-DD`, inclusive) of `transactionTime`. */
  from?: string;
  to?: string;
}

export const pageSize = 50;

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export const amountOf = (t: Transaction): number | undefined => {
  const total = isRecord(t.totalAmount) ? t.totalAmount : isRecord(t.principalAmount) ? t.principalAmount : undefined;
  return typeof total?.amount === 'number' ? total.amount : undefined;
};

export const customerOf = (t: Transaction): string =>
  text(t.customerId) || (isRecord(t.aliasAccount) ? text(t.aliasAccount.customerId) : '') || (isRecord(t.account) ? text(t.account.customerId) : '');

export const typeOf = (t: Transaction): string => text(t.transactionType);

export const timeOf = (t: Transaction): string => text(t.transactionTime);

/** Every text a free-text search looks in, lower case. */
function haystack(t: Transaction): string {
  const alias = isRecord(t.aliasAccount) ? text(t.aliasAccount.aliasAddress) : '';
  return [t.receiptNumber, text(t.originalReceiptNumber), t.status, typeOf(t), customerOf(t), alias, text(t.comment), text(t.supplierBusinessCode), text(t.responseDescription)]
    .join(' ')
    .toLowerCase();
}

export function matches(t: Transaction, f: TransactionFilter): boolean {
  if (f.status && t.status !== f.status) return false;
  if (f.type && typeOf(t) !== f.type) return false;
  if (f.customer && !customerOf(t).includes(f.customer)) return false;
  if (f.reference && !t.receiptNumber.includes(f.reference) && !text(t.originalReceiptNumber).includes(f.reference)) return false;
  if (f.min !== undefined || f.max !== undefined) {
    const amount = amountOf(t);
    if (amount === undefined || (f.min !== undefined && amount < f.min) || (f.max !== undefined && amount > f.max)) return false;
  }
  if (f.from || f.to) {
    const day = timeOf(t).slice(0, 10);
    if (!day || (f.from && day < f.from) || (f.to && day > f.to)) return false;
  }
  if (f.q) {
    const words = f.q.toLowerCase().split(/\s+/).filter(Boolean);
    const inside = haystack(t);
    if (!words.every((word) => inside.includes(word))) return false;
  }
  return true;
}

/** Newest first: by transaction time, then by receipt number (numbers handed out in order) for one second. */
export function newestFirst(transactions: readonly Transaction[]): Transaction[] {
  return [...transactions].sort((a, b) => order(timeOf(b), timeOf(a)) || b.receiptNumber.length - a.receiptNumber.length || order(b.receiptNumber, a.receiptNumber));
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface FilteredPage {
  rows: Transaction[];
  total: number;
  page: number;
  pages: number;
}

/** One page (1-based) of the matching transactions, newest first. */
export function filterPage(transactions: readonly Transaction[], f: TransactionFilter, page: number): FilteredPage {
  const matching = newestFirst(transactions.filter((t) => matches(t, f)));
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { rows: matching.slice((current - 1) * pageSize, current * pageSize), total: matching.length, page: current, pages };
}

/** The filter a route's query names. */
export function filterFromQuery(query: URLSearchParams): TransactionFilter {
  const number = (name: string) => {
    const value = query.get(name);
    return value === null || value === '' || Number.isNaN(Number(value)) ? undefined : Number(value);
  };
  const word = (name: string) => query.get(name) || undefined;
  return { q: word('q'), status: word('status'), type: word('type'), min: number('min'), max: number('max'), customer: word('customer'), reference: word('reference'), from: word('from'), to: word('to') };
}
