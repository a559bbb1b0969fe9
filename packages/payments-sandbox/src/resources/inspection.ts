import type { SandboxCore } from '../handler-context.js';
import type { components } from '../generated/control/openapi.js';
import { webhookSignatureHeader } from '@paykit/payments/webhooks';
import { keepable } from '../rules/sensitive.js';
import { toCents } from '../rules/money.js';
import type { RecentRequests, RecordedRequest } from '../state/recent-requests.js';
import type { AliasRecord, TransactionRecord, WebhookDelivery, WebhookSubscription } from '../state/state.js';
import { transactionsOldestFirst } from './newest-first-index.js';
import { transactionModel } from './transactions.js';

/**
 * What the control interface shows of the state for a look inside (the dashboard's views): pages of transactions
 * searched by the control contract's criteria, customers with their accounts, aliases, recurring payments,
 * deliveries, and a transaction's timeline. Read only; every list newest first, a page at a time, its cursor the
 * identifier of the last item of the page before.
 */

type Schemas = components['schemas'];
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The page of `newestFirst` (already filtered) after the item whose id is `cursor`. */
export function pageAfter<T>(newestFirst: Iterable<T>, idOf: (item: T) => string, cursor: string | undefined, limit: number): Page<T> {
  const items: T[] = [];
  let started = cursor === undefined;
  for (const item of newestFirst) {
    if (!started) {
      started = idOf(item) === cursor;
      continue;
    }
    if (items.length === limit) return { items, nextCursor: idOf(items[items.length - 1]!) };
    items.push(item);
  }
  return { items, nextCursor: null };
}

/** The records of a map newest first (maps hold them in creation order). */
function* reversed<T>(map: ReadonlyMap<string, T>): Generator<T> {
  const all = [...map.values()];
  for (let i = all.length - 1; i >= 0; i--) yield all[i]!;
}

function* filtered<T>(items: Iterable<T>, keep: (item: T) => boolean): Generator<T> {
  for (const item of items) if (keep(item)) yield item;
}

export interface TransactionCriteria {
  q?: string;
  status?: string[];
  transactionType?: string;
  amountMin?: number;
  amountMax?: number;
  customerId?: string;
  receiptNumber?: string;
  createdFrom?: string;
  createdTo?: string;
}

/** The top-level texts and numbers of `fields` (a payment's metadata, its request as sent: a reference number). */
function valuesOf(fields: Record<string, unknown> | undefined, into: string[]): void {
  if (!fields) return;
  for (const value of Object.values(fields)) if (typeof value === 'string' || typeof value === 'number') into.push(String(value));
}

/**
 * What a text search reads of a transaction, lower case, made once per record and kept on it under a symbol (which
 * neither JSON nor the stores see): the fields it reads are set when the transaction is made and never change (a
 * refund or a settlement changes others), and a record read again from the store is a new object, so it gets its
 * own. At 50,000 transactions a search is then one `includes` each. (A WeakMap did the same at twice the cost: its
 * entries weigh on every garbage collection.)
 */
const searchText = Symbol('searchText');
function searchTextOf(t: TransactionRecord & { [searchText]?: string }): string {
  let text = t[searchText];
  if (text === undefined) {
    const parts = [t.receiptNumber, t.originalReceiptNumber ?? '', t.customerId ?? '', t.comment ?? ''];
    valuesOf(t.metadata, parts);
    valuesOf(t.request, parts);
    // A separator no query holds (a query is trimmed text), so that no match spans two fields.
    text = parts.join('\u0000').toLowerCase();
    Object.defineProperty(t, searchText, { value: text, enumerable: false, writable: true, configurable: true });
  }
  return text!;
}

/** The test a transaction record must pass: every criterion given, read on the record (no model is made). */
export function transactionMatcher(criteria: TransactionCriteria): (t: TransactionRecord) => boolean {
  const tests: ((t: TransactionRecord) => boolean)[] = [];
  const q = criteria.q?.trim().toLowerCase();
  if (q) tests.push((t) => searchTextOf(t).includes(q));
  if (criteria.status?.length) {
    const statuses = new Set(criteria.status);
    tests.push((t) => statuses.has(t.status));
  }
  if (criteria.transactionType !== undefined) {
    const type = criteria.transactionType.toUpperCase();
    tests.push((t) => t.transactionType === type);
  }
  if (criteria.amountMin !== undefined) {
    const min = toCents(criteria.amountMin);
    tests.push((t) => t.principal >= min);
  }
  if (criteria.amountMax !== undefined) {
    const max = toCents(criteria.amountMax);
    tests.push((t) => t.principal <= max);
  }
  if (criteria.customerId !== undefined) {
    const customerId = criteria.customerId;
    tests.push((t) => t.customerId === customerId);
  }
  if (criteria.receiptNumber !== undefined) {
    const receipt = criteria.receiptNumber;
    tests.push((t) => t.receiptNumber === receipt || t.originalReceiptNumber === receipt);
  }
  if (criteria.createdFrom !== undefined) {
    const from = Date.parse(criteria.createdFrom);
    tests.push((t) => t.createdAt >= from);
  }
  if (criteria.createdTo !== undefined) {
    const to = Date.parse(criteria.createdTo);
    tests.push((t) => t.createdAt < to);
  }
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0]!;
  return (t) => {
    for (const test of tests) if (!test(t)) return false;
    return true;
  };
}

export function listTransactions(core: SandboxCore, criteria: TransactionCriteria, cursor: string | undefined, limit: number): Page<unknown> {
  const links = core.links();
  const now = core.clock.now();
  const matches = transactionMatcher(criteria);
  // One plain loop from the newest: a search reads up to 50,000 records, and each layer of generators costs there.
  const ascending = transactionsOldestFirst(core.state.transactions);
  let i = ascending.length - 1;
  if (cursor !== undefined) {
    while (i >= 0 && ascending[i]!.receiptNumber !== cursor) i--;
    i--;
  }
  const items: TransactionRecord[] = [];
  let nextCursor: string | null = null;
  for (; i >= 0; i--) {
    const t = ascending[i]!;
    if (!matches(t)) continue;
    if (items.length === limit) {
      nextCursor = items[limit - 1]!.receiptNumber;
      break;
    }
    items.push(t);
  }
  return { items: items.map((t) => transactionModel(core, t, links, now)), nextCursor };
}

/** Only the records of `customerId`, when one is given. */
const ofCustomer = <T extends { customerId?: string }>(items: Iterable<T>, customerId: string | undefined) =>
  customerId === undefined ? items : filtered(items, (item) => item.customerId === customerId);

export function listCustomers(core: SandboxCore, customerId: string | undefined, cursor: string | undefined, limit: number): Page<Schemas['Customer']> {
  const page = pageAfter(ofCustomer(reversed(core.state.customers), customerId), (c) => c.customerId, cursor, limit);
  const wanted = new Set(page.items.map((c) => c.customerId));
  const accounts = new Map<string, Schemas['Account'][]>();
  for (const a of core.state.accounts.values()) {
    if (a.customerId === undefined || !wanted.has(a.customerId)) continue;
    const list = accounts.get(a.customerId) ?? [];
    list.push({
      accountToken: a.accountToken,
      createdAt: iso(a.createdAt),
      ...(a.accountType ? { accountType: a.accountType } : {}),
      ...(a.cardScheme ? { cardScheme: a.cardScheme } : {}),
      details: keepable(a.details),
      fields: keepable(a.fields),
      disabled: a.disabled === true,
    });
    accounts.set(a.customerId, list);
  }
  return {
    items: page.items.map((c) => ({ customerId: c.customerId, createdAt: iso(c.createdAt), fields: keepable(c.fields), accounts: accounts.get(c.customerId) ?? [] })),
    nextCursor: page.nextCursor,
  };
}

export function aliasView(core: SandboxCore, a: AliasRecord): Schemas['Alias'] {
  let due: number | undefined;
  for (const task of core.state.tasks.values()) {
    if (task.ref === a.id && task.kind.startsWith('alias.')) due = Math.min(due ?? Infinity, task.dueAt);
  }
  return {
    id: a.id,
    createdAt: iso(a.createdAt),
    aliasAddress: a.aliasAddress,
    customerId: a.customerId,
    type: a.type,
    supplierBusinessCode: a.supplierBusinessCode,
    ...(a.paymentAmount !== undefined ? { paymentAmount: a.paymentAmount / 100 } : {}),
    currency: a.currency,
    status: a.status,
    ...(a.statusDescription ? { statusDescription: a.statusDescription } : {}),
    statusDueAt: due === undefined ? null : iso(due),
  };
}

export function listAliases(core: SandboxCore, customerId: string | undefined, cursor: string | undefined, limit: number): Page<Schemas['Alias']> {
  const page = pageAfter(ofCustomer(reversed(core.state.aliases), customerId), (a) => a.id, cursor, limit);
  return { items: page.items.map((a) => aliasView(core, a)), nextCursor: page.nextCursor };
}

export function listRecurringPayments(
  core: SandboxCore,
  customerId: string | undefined,
  cursor: string | undefined,
  limit: number,
): Page<Schemas['RecurringPayment']> {
  const page = pageAfter(ofCustomer(reversed(core.state.recurringPayments), customerId), (r) => r.id, cursor, limit);
  return {
    items: page.items.map((r) => ({ id: r.id, createdAt: iso(r.createdAt), ...(r.customerId ? { customerId: r.customerId } : {}), fields: keepable(r.fields) })),
    nextCursor: page.nextCursor,
  };
}

const signatureHeader = webhookSignatureHeader ?? 'X-Webhook-Signature';

export function deliveryOutcome(d: WebhookDelivery): Schemas['WebhookDelivery']['outcome'] {
  return d.delivered ? 'delivered' : d.attempts.length ? 'failing' : 'pending';
}

/** A delivery as the control interface shows it: the body parsed, the headers of its last attempt (no password). */
export function deliveryView(d: WebhookDelivery, subscription: WebhookSubscription | undefined): Schemas['WebhookDelivery'] {
  const signature = d.attempts.findLast((a) => a.signature !== undefined)?.signature;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(signature ? { [signatureHeader]: signature } : {}) };
  if (subscription?.basicAuth) headers.Authorization = `Basic (user ${subscription.basicAuth.username}; password not shown)`;
  return { ...d, body: JSON.parse(d.body) as Schemas['WebhookDelivery']['body'], headers, outcome: deliveryOutcome(d) };
}

export function listDeliveries(
  core: SandboxCore,
  filter: { outcome?: string; eventType?: string },
  cursor: string | undefined,
  limit: number,
): Page<Schemas['WebhookDelivery']> {
  const keep = (d: WebhookDelivery) => (filter.outcome === undefined || deliveryOutcome(d) === filter.outcome) && (filter.eventType === undefined || d.eventType === filter.eventType);
  const page = pageAfter(filtered(reversed(core.state.deliveries), keep), (d) => d.id, cursor, limit);
  return { items: page.items.map((d) => deliveryView(d, core.state.subscriptions.get(d.subscriptionId))), nextCursor: page.nextCursor };
}

type TimelineEntry = Schemas['TimelineEntry'];
const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/**
 * What happened to a transaction, oldest first: its creating request (from the recent requests, or the body its
 * record kept), replays under its key, settlement, refunds, a void, and the notifications that name it.
 */
export function transactionTimeline(core: SandboxCore, t: TransactionRecord, requests: RecentRequests): Schemas['TransactionTimeline'] {
  const links = core.links();
  const now = core.clock.now();
  const entries: (TimelineEntry & { ms: number })[] = [];
  const seen = requests.naming(t.receiptNumber);
  const creating = seen.find((r) => !r.replay && r.method === 'POST');
  const amount = money(t.principal + t.surcharge, t.currency);
  entries.push({
    ms: t.createdAt,
    at: iso(t.createdAt),
    kind: 'created',
    summary: `${t.transactionType} of ${amount}: ${t.settlesTo || t.settledAt !== undefined ? 'Pending' : t.status === 'Voided' ? 'Approved' : t.status}`,
    ...(creating ? { request: creating } : { body: keepable(t.request) }),
  });
  for (const r of seen) {
    if (!r.replay) continue;
    entries.push({ ms: Date.parse(r.at), at: r.at, kind: 'replay', summary: `Resent with Idempotency-Key ${r.idempotencyKey ?? ''}: the stored answer (${r.status}) given back`, request: r });
  }
  if (t.settledAt !== undefined) entries.push({ ms: t.settledAt, at: iso(t.settledAt), kind: 'settled', summary: `Settled: ${t.status}` });
  for (const other of core.state.transactions.values()) {
    if (other.originalReceiptNumber !== t.receiptNumber || other.transactionType !== 'REFUND') continue;
    entries.push({
      ms: other.createdAt,
      at: iso(other.createdAt),
      kind: 'refund',
      summary: `Refund ${other.receiptNumber} of ${money(other.principal, other.currency)}: ${other.status}`,
      transaction: transactionModel(core, other, links, now) as Schemas['Transaction'],
    });
  }
  if (t.voidedAt !== undefined) entries.push({ ms: t.voidedAt, at: iso(t.voidedAt), kind: 'voided', summary: 'Voided' });
  const quoted = `"${t.receiptNumber}"`;
  for (const d of core.state.deliveries.values()) {
    if (!d.body.includes(quoted) || (JSON.parse(d.body) as { data?: { receiptNumber?: unknown } }).data?.receiptNumber !== t.receiptNumber) continue;
    entries.push({
      ms: d.createdAt,
      at: iso(d.createdAt),
      kind: 'webhook',
      summary: `${d.eventType} to ${d.url}: ${deliveryOutcome(d)} after ${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}`,
      delivery: deliveryView(d, core.state.subscriptions.get(d.subscriptionId)),
    });
  }
  entries.sort((a, b) => a.ms - b.ms);
  return { transaction: transactionModel(core, t, links, now) as Schemas['Transaction'], entries: entries.map(({ ms: _ms, ...entry }) => entry) };
}

export type { RecordedRequest };
