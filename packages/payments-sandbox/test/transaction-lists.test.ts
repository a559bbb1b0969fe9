import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { Links, page } from '../src/rules/links.js';
import { matchesQuery } from '../src/resources/search.js';
import { storeOf } from '../src/sandbox.js';
import type { SandboxCore } from '../src/handler-context.js';
import { transactionField, transactionModel, transactionModelNames } from '../src/resources/transactions.js';
import { emptyState, type SandboxState, type TransactionRecord, type TransactionStatus } from '../src/state/state.js';
import { everyItem, call, cardToken, paymentRequest, sandboxPerTest } from './support.js';

// The transaction lists read their criteria on the records and model only the page they return (issue 22). Each
// answer is compared with the straightforward way (every visible transaction modelled, sorted newest first, filtered
// by its model and request, then paged): a few hundred generated transactions with many in the same millisecond,
// every list, queries that match many, few and none, and page numbers around the last page.
const restrictedKey = 'sk_lists_restricted_test_business';
const env = sandboxPerTest({
  businesses: [{ supplierBusinessCode: 'TEST_BUSINESS' }, { supplierBusinessCode: 'OTHER_BUSINESS' }],
  keys: { secret: ['sk_lists_full', { key: restrictedKey, businesses: ['TEST_BUSINESS'] }] },
});

const hour = 3_600_000;
type Model = Record<string, unknown> & { receiptNumber: string };

/** A small deterministic generator (mulberry32): the same transactions at every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const customers = ['CUS-LIST-1', 'CUS-LIST-2'];
const accounts = ['ACC-LIST-1', 'ACC-LIST-2'];

/**
 * `count` transactions on 48 hours (many in one millisecond, in the map out of time order), none within minutes of
 * the end of its void window, so that `voidable` is the same for both readings of one test.
 */
function generate(state: SandboxState, count: number, seed: number, first = 1): TransactionRecord[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const base = Date.now() + 10 * 60_000;
  for (const id of customers) state.customers.set(id, { customerId: id, createdAt: base - 50 * hour, fields: { customerNumber: id } });
  for (const [i, id] of accounts.entries()) {
    state.accounts.set(id, { accountToken: id, createdAt: base - 50 * hour, customerId: customers[i]!, accountType: 'CREDIT_CARD', details: {}, fields: {} });
  }
  const made: TransactionRecord[] = [];
  for (let n = first; n < first + count; n++) {
    const preauths = made.filter((t) => t.transactionType === 'PREAUTH');
    const transactionType = preauths.length > 0 && next() < 0.15 ? pick(['CAPTURE', 'REFUND']) : pick(['PAYMENT', 'PAYMENT', 'PREAUTH']);
    const status = pick<TransactionStatus>(['Approved', 'Approved', 'Approved', 'Declined', 'Pending', 'Voided', 'Suspended']);
    const principal = 100 * (1 + Math.floor(next() * 50));
    const stored = next() < 0.3;
    const request: Record<string, unknown> = { principalAmount: principal / 100 };
    if (next() < 0.7) request.referenceNumber = pick(['R1', 'R2', 'R3']);
    if (next() < 0.2) request.settlementDate = '1999-12-31'; // the model's own field wins over the request's
    if (next() < 0.2) request.responseCode = 'X1'; // read where the model has none (pending, suspended)
    if (next() < 0.1) request.debtRepayment = true;
    if (next() < 0.3) request.note = pick(['a', 'b']);
    // Fields the model gives only for some records: where it leaves them out, the request's are read.
    if (next() < 0.2) request.originalReceiptNumber = 'FROM-REQUEST';
    if (next() < 0.1) request.metadata = 'from-request';
    const record: TransactionRecord = {
      receiptNumber: String(1_800_000_000 + n),
      createdAt: base - hour * Math.floor(next() * 48),
      transactionType,
      status,
      principal,
      surcharge: next() < 0.2 ? 25 : 0,
      currency: 'AUD',
      supplierBusinessCode: next() < 0.25 ? 'OTHER_BUSINESS' : 'TEST_BUSINESS',
      refunded: next() < 0.1 ? 100 : 0,
      accountType: stored ? 'CREDIT_CARD' : pick(['CREDIT_CARD', 'CREDIT_CARD', 'DIRECT_DEBIT', 'DIRECT_DEBIT_NZ']),
      ...(stored ? { accountToken: accounts[n % 2]!, customerId: customers[n % 2]! } : {}),
      ...(transactionType === 'CAPTURE' || transactionType === 'REFUND' ? { originalReceiptNumber: pick(preauths).receiptNumber } : {}),
      ipAddress: next() < 0.5 ? '10.0.0.1' : null,
      comment: next() < 0.2 ? 'c' : null,
      ...(next() < 0.3 ? { metadata: { orderId: `o-${n}` } } : {}),
      request,
    };
    state.transactions.set(record.receiptNumber, record);
    made.push(record);
  }
  return made;
}

const stateOf = () => storeOf(env.sandbox)!.state;

/** Every list of transactions: its path and which records belong on it. */
function lists(state: SandboxState) {
  const actedOn = new Set([...state.transactions.values()].map((t) => t.originalReceiptNumber));
  // A payment both keys may see (the restricted key gets 404 for another business's).
  const refunded = [...state.transactions.values()].find(
    (t) => t.transactionType === 'REFUND' && state.transactions.get(t.originalReceiptNumber!)?.supplierBusinessCode === 'TEST_BUSINESS',
  )!.originalReceiptNumber!;
  const none = () => false;
  return [
    { path: '/transactions', holds: () => true },
    { path: '/transactions/for-reference-number', holds: () => true },
    { path: '/transactions/for-settlement-date', holds: () => true },
    { path: '/transactions/for-credit-card', holds: (t: TransactionRecord) => t.accountType === 'CREDIT_CARD' },
    { path: '/transactions/for-bank-account', holds: (t: TransactionRecord) => t.accountType === 'DIRECT_DEBIT' },
    { path: '/transactions/for-nz-bank-account', holds: (t: TransactionRecord) => t.accountType === 'DIRECT_DEBIT_NZ' },
    { path: '/transactions/suspended', holds: (t: TransactionRecord) => t.status === 'Suspended' },
    { path: '/transactions/returns', holds: none },
    {
      path: '/transactions/open-preauths',
      holds: (t: TransactionRecord) => t.transactionType === 'PREAUTH' && t.status === 'Approved' && !actedOn.has(t.receiptNumber),
    },
    { path: `/transactions/for-account-token/${accounts[0]}`, holds: (t: TransactionRecord) => t.accountToken === accounts[0] },
    { path: `/customers/${customers[1]}/transactions`, holds: (t: TransactionRecord) => t.customerId === customers[1] },
    {
      path: `/transactions/${refunded}/refunds`,
      holds: (t: TransactionRecord) => t.transactionType === 'REFUND' && t.originalReceiptNumber === refunded,
    },
  ];
}

/** Queries that match many, few and none, read on the model, on the request, on both, and page numbers around the end. */
function queries(state: SandboxState, models: Map<string, Model>): string[] {
  const some = [...models.values()];
  const dates = [...new Set(some.map((m) => m.settlementDate as string))];
  const preauth = [...state.transactions.values()].find((t) => t.transactionType === 'PREAUTH')!.receiptNumber;
  const pages = ['', 'page=2', 'page=3', 'page=14', 'page=15', 'page=16', 'page=0', 'page=abc', 'page=1.5'];
  return [
    ...pages,
    ...dates.flatMap((d) => [`settlementDate=${d}`, `settlementDate=${d}&page=2`]),
    'settlementDate=1999-12-31',
    'settlementDate=2000-01-01',
    'status=Approved',
    'status=Approved&page=2',
    'status=Approved&status=Declined',
    'referenceNumber=R1',
    'referenceNumber=R1&page=2',
    'referenceNumber=R2&status=Approved',
    'referenceNumber=NONE',
    'voidable=true',
    'voidable=false&page=3',
    'refundable=true',
    'responseCode=05',
    'responseCode=X1',
    'summaryCode=0',
    `originalReceiptNumber=${preauth}`,
    'metadata=x',
    'metadata=from-request',
    'originalReceiptNumber=FROM-REQUEST',
    'principalAmount=10',
    'comment=c',
    'comment=null',
    'ipAddress=10.0.0.1',
    'debtRepayment=true',
    `transactionTime=${some[0]!.transactionTime as string}`,
    'supplierBusinessCode=OTHER_BUSINESS',
    'supplierBusinessCode=TEST_BUSINESS&page=2',
    'note=a',
    'note=a&referenceNumber=R3',
    'noSuchField=1',
    'constructor=x',
    'fraudGuardResult=null',
    `receiptNumber=${some[5]!.receiptNumber}`,
  ];
}

/** The straightforward answer: every visible transaction on the list modelled, newest first, filtered, paged. */
function reference(state: SandboxState, models: Map<string, Model>, path: string, query: string, holds: (t: TransactionRecord) => boolean, restricted: boolean) {
  const search = new URLSearchParams(query);
  // Newest first; within one millisecond, the one created (held) last first.
  const items = [...state.transactions.values()]
    .reverse()
    .sort((a, b) => b.createdAt - a.createdAt)
    .filter((t) => (!restricted || t.supplierBusinessCode === 'TEST_BUSINESS') && holds(t))
    .filter((t) => matchesQuery({ ...t.request, ...models.get(t.receiptNumber) }, search))
    .map((t) => models.get(t.receiptNumber)!);
  const links = new Links(env.sandbox.url);
  if (path === '/transactions') return { links: links.self(path), data: items.slice(0, rules.recentTransactions.count) };
  return page(items, links, path, search);
}

/** Fewer queries, to follow the lists through changes: the first pages, by date, and a query on the request. */
function fewQueries(state: SandboxState, models: Map<string, Model>): string[] {
  return queries(state, models).filter((q) => /^(|page=[23]|settlementDate=[^&]*|referenceNumber=R1)$/.test(q));
}

/** Every list under each query, with the full key and the key restricted to one business, against the reference. */
async function compareEverything(queriesOf = queries): Promise<number> {
  const state = stateOf();
  const listed = await everyItem((q) => env.sandbox.control.listTransactions(q));
  const models = new Map((listed as Model[]).map((m) => [m.receiptNumber, m]));
  expect(models.size).toBe(state.transactions.size);
  let compared = 0;
  for (const { path, holds } of lists(state)) {
    for (const query of queriesOf(state, models)) {
      for (const key of [env.secretKey, restrictedKey]) {
        const at = query ? `${path}?${query}` : path;
        const response = await call(env.sandbox, 'GET', at, { key });
        expect(response.status, `${at}: ${response.text}`).toBe(200);
        expect(response.json, `${at} with the ${key === restrictedKey ? 'restricted' : 'full'} key`).toEqual(reference(state, models, path, query, holds, key === restrictedKey));
        compared++;
      }
    }
  }
  return compared;
}

describe('payments sandbox: transaction lists give what modelling every transaction gives', () => {
  it('every list and query over 300 generated transactions, incl. ties, page boundaries and empty pages', { timeout: 30_000 }, async () => {
    const made = generate(stateOf(), 300, 22);
    // The generator gives what the comparison needs: ties in creation time, several pages, lists that are empty.
    expect(new Set(made.map((t) => t.createdAt)).size).toBeLessThan(60);
    expect(made.filter((t) => t.transactionType === 'PREAUTH' && t.status === 'Approved').length).toBeGreaterThan(3);
    // 300 on 20 a page: page 15 is the last and full, without a next link; page 16 is empty.
    const last = await call(env.sandbox, 'GET', '/transactions/for-reference-number?page=15');
    expect(last.json.data).toHaveLength(20);
    expect((last.json.links as { rel: string }[]).map((l) => l.rel)).toEqual(['self', 'prev']);
    const beyond = await call(env.sandbox, 'GET', '/transactions/for-reference-number?page=16');
    expect(beyond.json.data).toHaveLength(0);
    expect(await compareEverything()).toBeGreaterThan(900);
  });

  it('follows the transactions as they change: added in and out of time order, replaced, removed, cleared and refilled', { timeout: 30_000 }, async () => {
    const state = stateOf();
    const made = generate(state, 120, 7);
    await compareEverything(fewQueries);
    // Added later: older than some, in the same millisecond as others (placed into the order kept since).
    const [tie] = made;
    const added = generate(state, 40, 8, 1000);
    added[0]!.createdAt = tie!.createdAt;
    await compareEverything(fewQueries);
    // Through the API: a payment, the newest of all.
    const paid = await call(env.sandbox, 'POST', '/transactions', { body: paymentRequest(await cardToken(env), 12) });
    expect(paid.status, paid.text).toBe(201);
    await compareEverything(fewQueries);
    // A record replaced under its key, with another creation time; one removed.
    const moved = made[10]!;
    state.transactions.set(moved.receiptNumber, { ...moved, createdAt: moved.createdAt - 7 * hour });
    state.transactions.delete(made[20]!.receiptNumber);
    await compareEverything(fewQueries);
    // Cleared and refilled to the same size with other records.
    const size = state.transactions.size;
    await env.sandbox.control.resetSandbox();
    generate(state, size, 9, 5000);
    expect(state.transactions.size).toBe(size);
    await compareEverything(fewQueries);
  });
});

describe('payments sandbox: a search reads a field of a transaction as its model and request give it', () => {
  it('every field of every generated transaction, with and without an alias, and names the model does not have', () => {
    const state = emptyState();
    const made = generate(state, 300, 5);
    state.aliases.set('ALIAS-1', { id: 'ALIAS-1', createdAt: 1, aliasAddress: 'a@pay.example.com', customerId: customers[0]!, type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS', currency: 'AUD', status: 'ACTIVE' });
    for (const t of made.filter((_, i) => i % 7 === 0)) t.aliasId = 'ALIAS-1';
    const business = { currency: 'AUD', surcharges: {}, acceptedSchemes: [], aliasDisplayName: 'Shown' };
    const core = {
      state,
      clock: { now: () => Date.now() },
      facility: { businesses: new Map([['TEST_BUSINESS', { supplierBusinessCode: 'TEST_BUSINESS', ...business }]]) },
    } as unknown as SandboxCore;
    const links = new Links('http://127.0.0.1:1/rest/v1');
    const now = Date.now();
    let compared = 0;
    for (const t of made) {
      const model = transactionModel(core, t, links, now);
      for (const name of Object.keys(model)) expect(transactionModelNames.has(name), `${name} is listed among the model's fields`).toBe(true);
      const fields: Record<string, unknown> = { ...t.request, ...model };
      for (const name of new Set([...transactionModelNames, ...Object.keys(t.request), 'note', 'noSuchField', 'constructor', 'toString'])) {
        expect(transactionField(core, links, now, name)(t), `${t.receiptNumber} ${name}`).toEqual(fields[name]);
        compared++;
      }
    }
    // Both sides of every conditional field were seen: with and without alias, codes, original transaction, metadata.
    const seen = (name: string) => made.filter((t) => name in transactionModel(core, t, links, now)).length;
    for (const name of ['source', 'aliasAccount', 'responseCode', 'summaryCode', 'originalReceiptNumber', 'metadata']) {
      expect(seen(name), name).toBeGreaterThan(0);
      expect(seen(name), name).toBeLessThan(made.length);
    }
    expect(compared).toBeGreaterThan(300 * transactionModelNames.size);
  });
});

describe('payments sandbox: the dates of a transaction at the edges of a day', () => {
  const day = 86_400_000;
  const midnight = Date.UTC(2026, 2, 3);
  it.each([
    { at: 'the last millisecond of a day', createdAt: midnight - 1 },
    { at: 'midnight', createdAt: midnight },
    { at: 'the first millisecond after midnight', createdAt: midnight + 1 },
    { at: 'noon', createdAt: midnight + day / 2 },
    { at: 'a leap day', createdAt: Date.UTC(2028, 1, 29, 23, 59, 59, 999) },
    { at: 'before 1970', createdAt: Date.UTC(1969, 11, 31, 12) },
    { at: 'epoch', createdAt: 0 },
  ])('$at: the settlement date as the calendar gives it', ({ createdAt }) => {
    const state = emptyState();
    const [t] = generate(state, 1, 3);
    t!.createdAt = createdAt;
    const core = { state, clock: { now: () => Date.now() }, facility: { businesses: new Map() } } as unknown as SandboxCore;
    const links = new Links('http://127.0.0.1:1/rest/v1');
    const settles = new Date(createdAt + day);
    const expected = `${String(settles.getUTCFullYear()).padStart(4, '0')}-${String(settles.getUTCMonth() + 1).padStart(2, '0')}-${String(settles.getUTCDate()).padStart(2, '0')}`;
    // Twice: the second reading comes from what the first one kept for the day.
    for (let i = 0; i < 2; i++) {
      expect(transactionModel(core, t!, links).settlementDate).toBe(expected);
      expect(transactionField(core, links, Date.now(), 'settlementDate')(t!)).toBe(expected);
    }
  });
});
