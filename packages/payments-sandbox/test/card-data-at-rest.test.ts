// end-to-end: a real PostgreSQL (the suite's one cluster, its data folder and log read) beside an SQLite file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { paymentsSensitive } from '../src/generated/sensitive.js';
import { startPaymentsSandbox } from '../src/index.js';
import { basic } from './support.js';
import { databaseOf, postgresTestsRun, sharedPostgres, type SharedPostgres } from './support/postgres.js';

/**
 * No card number or card security code is kept in full, in any store or log: a run that sends cards in every place
 * the payments contract takes them (the token request, and the open objects, which take any property at any depth:
 * a payment, its metadata and a `creditCard` object beside its token, a refund, customers, accounts, recurring
 * payments, payment files, mandate agreements, a surcharge query), resends under an Idempotency-Key, and an answer
 * that names a card in a field error; then the SQLite file, the PostgreSQL tables, the cluster's files and log, and
 * what the sandbox printed are searched for each card number, and for each security code under its field's name.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const keys = { secret: 'sk_cards_test', publishable: 'pk_cards_test' };
/** Card numbers no other test uses, so that a find in the shared cluster's files is this test's. */
const cards = { token: '4917610000000061', payment: '5425233430109903', metadata: '374245455400126', deep: '6250941006528599', customer: '4917610000000079', unknownScheme: '9912345678901238' };
const securityCodes = ['947', '8316'];
const year = String(new Date().getUTCFullYear() + 3);

/** The names the contract marks as a card number and as a security code (read from the marks, not a list of ours). */
const namesOf = (kind: string) => Object.entries(paymentsSensitive.properties).filter(([, k]) => k === kind).map(([name]) => name);
const cardNumberNames = namesOf('card-number');
const securityCodeNames = namesOf('card-security-code');

/** A card under every card-number name and a code under every security-code name the contract marks. */
const cardData = (card: string, code: string) => ({
  ...Object.fromEntries(cardNumberNames.map((name) => [name, card])),
  ...Object.fromEntries(securityCodeNames.map((name) => [name, code])),
});

async function send(base: string, method: string, path: string, body: unknown, extra: { key?: string; idempotencyKey?: string; raw?: string } = {}) {
  const response = await fetch(base + path, {
    method,
    headers: {
      authorization: basic(extra.key ?? keys.secret),
      accept: 'application/json',
      'content-type': 'application/json',
      ...(extra.idempotencyKey ? { 'Idempotency-Key': extra.idempotencyKey } : {}),
    },
    body: extra.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

/** Every place of the contract that takes a card, each answered as it should be. */
async function cardsEverywhere(base: string): Promise<void> {
  const [code, otherCode] = securityCodes as [string, string];
  const tokenRequest = (card: string) => ({ supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', expiryDateMonth: '12', expiryDateYear: year, cardholderName: 'Card Holder', ...cardData(card, code) });
  const token = async () => {
    const made = await send(base, 'POST', '/single-use-tokens', tokenRequest(cards.token), { key: keys.publishable });
    expect(made.status, made.text).toBe(200);
    return made.json.singleUseTokenId as string;
  };
  const everywhere = {
    ...cardData(cards.payment, code),
    creditCard: { ...cardData(cards.payment, otherCode), expiryDateMonth: '12', expiryDateYear: year },
    metadata: { ...cardData(cards.metadata, code), note: { creditCard: cardData(cards.deep, otherCode) }, list: [cardData(cards.deep, code)] },
  };
  const payment = { transactionType: 'PAYMENT', singleUseTokenId: await token(), supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 30, currency: 'AUD', entryMode: 'STORED_CREDENTIAL', ...everywhere };
  const paid = await send(base, 'POST', '/transactions', payment, { idempotencyKey: 'cards-payment' });
  expect(paid.status, paid.text).toBe(201);
  expect((await send(base, 'POST', '/transactions', payment, { idempotencyKey: 'cards-payment' })).text, 'the resend is the replay').toBe(paid.text);
  const refund = { transactionType: 'REFUND', originalReceiptNumber: paid.json.receiptNumber, principalAmount: 5, entryMode: 'STORED_CREDENTIAL', ...everywhere };
  expect((await send(base, 'POST', '/transactions', refund, { idempotencyKey: 'cards-refund' })).status).toBe(201);

  const customer = await send(base, 'POST', '/customers', { customerNumber: 'CARDS-1', customerName: 'Cards', ...everywhere, ...cardData(cards.customer, code) }, { idempotencyKey: 'cards-customer' });
  expect(customer.status, customer.text).toBe(201);
  const customerId = customer.json.customerId as string;
  expect((await send(base, 'PUT', `/customers/${customerId}`, { customerName: 'Cards', ...everywhere })).status).toBe(200);
  expect((await send(base, 'POST', `/customers/${customerId}/accounts`, { singleUseTokenId: await token(), ...everywhere }, { idempotencyKey: 'cards-account' })).status).toBe(201);
  expect((await send(base, 'POST', '/accounts', { singleUseTokenId: await token(), ...everywhere })).status).toBe(201);
  const schedule = await send(base, 'POST', `/customers/${customerId}/recurring-payments`, { referenceNumber: 'R1', ...everywhere });
  expect(schedule.status, schedule.text).toBeLessThan(300);
  const file = await send(base, 'POST', '/payment-files', { fileName: 'f.csv', ...everywhere });
  expect(file.status, file.text).toBeLessThan(300);
  const agreement = await send(base, 'POST', `/customers/${customerId}/mandate-agreements`, { ...everywhere });
  expect(agreement.status, agreement.text).toBeLessThan(300);
  // Every value of the surcharge query is a card number (a mark on the whole body: its field is not published); a body
  // that is not an object is refused, and its value named in the field error.
  const surcharge = await send(base, 'POST', '/businesses/TEST_BUSINESS/query-card-surcharge', { pan: cards.payment }, { idempotencyKey: 'cards-surcharge' });
  expect(surcharge.status, surcharge.text).toBeLessThan(300);
  const notAnObject = await send(base, 'POST', '/businesses/TEST_BUSINESS/query-card-surcharge', undefined, { raw: JSON.stringify(cards.payment), idempotencyKey: 'cards-surcharge-refused' });
  expect(notAnObject.status, notAnObject.text).toBe(422);
  // A refusal that names the card in a field error (a number where the contract wants text), kept under its key.
  const refused = await send(base, 'POST', '/single-use-tokens', { ...tokenRequest(cards.token), cardNumber: Number(cards.token) }, { key: keys.publishable, idempotencyKey: 'cards-refused' });
  expect(refused.status, refused.text).toBe(422);
  // A card the sandbox refuses by its own rule (no known scheme), the number named in the field error.
  const unknownScheme = await send(base, 'POST', '/single-use-tokens', tokenRequest(cards.unknownScheme), { key: keys.publishable, idempotencyKey: 'cards-unknown-scheme' });
  expect(unknownScheme.status, unknownScheme.text).toBe(422);
  expect(unknownScheme.json.errors, 'the field error keeps the last four digits').toContainEqual(expect.objectContaining({ fieldValue: `${'x'.repeat(12)}${cards.unknownScheme.slice(-4)}` }));
  // Nothing the sandbox answers carries a card in full either.
  for (const answer of [paid, customer, refused, unknownScheme, notAnObject]) for (const card of Object.values(cards)) expect(answer.text).not.toContain(card);
}

/** Every file under `folder`, as bytes (a cluster's data folder, an SQLite file with its log). */
function filesUnder(folder: string): { path: string; bytes: Buffer }[] {
  const found: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) found.push(...filesUnder(path));
    else if (stat?.isFile()) found.push({ path, bytes: readFileSync(path) });
  }
  return found;
}

/** The places where a card was found: a full number anywhere, or a security code as the value of its field. */
function cardsIn(where: string, text: string): string[] {
  const found = Object.values(cards).filter((card) => text.includes(card)).map((card) => `${where}: card ${card}`);
  for (const name of securityCodeNames) {
    for (const code of securityCodes) if (new RegExp(`"${name}"\\s*:\\s*"?${code}`).test(text)) found.push(`${where}: ${name} ${code}`);
  }
  return found;
}

let printed: string[];
beforeAll(() => {
  expect(cardNumberNames.length, 'the contract marks card numbers').toBeGreaterThan(0);
  expect(securityCodeNames.length, 'the contract marks security codes').toBeGreaterThan(0);
});
const spies = () => {
  printed = [];
  for (const method of ['log', 'warn', 'error', 'info'] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
};
afterEach(() => vi.restoreAllMocks());

describe('payments sandbox: no card data at rest (--state FILE)', () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'paykit-sandbox-cards-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the SQLite file, its log and what the sandbox printed hold no card number and no security code', async () => {
    spies();
    const file = join(dir, 'state.db');
    const sandbox = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    try {
      await cardsEverywhere(sandbox.url);
      // Read before the close too: the write-ahead log holds the latest writes until a checkpoint.
      const open = filesUnder(dir).flatMap(({ path, bytes }) => cardsIn(path, bytes.toString('latin1')));
      expect(open).toEqual([]);
    } finally {
      await sandbox.close();
    }
    expect(existsSync(file)).toBe(true);
    expect(filesUnder(dir).flatMap(({ path, bytes }) => cardsIn(path, bytes.toString('latin1')))).toEqual([]);
    expect(cardsIn('printed', printed.join('\n'))).toEqual([]);
  });
});

describe.skipIf(!postgresTestsRun)('payments sandbox: no card data at rest (--state postgres://…)', () => {
  let cluster: SharedPostgres;
  beforeAll(() => void (cluster = sharedPostgres()));

  it("the PostgreSQL tables, the cluster's files and log, and what the sandbox printed hold no card number and no security code", async () => {
    spies();
    const url = await cluster.createDatabase();
    const sandbox = await startPaymentsSandbox({ stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    try {
      await cardsEverywhere(sandbox.url);
    } finally {
      await sandbox.close();
    }
    const rows = await cluster.query<{ collection: string; key: string; value: string | null }>(databaseOf(url), 'SELECT collection, key, value FROM paykit_sandbox_records');
    expect(rows.length).toBeGreaterThan(10);
    expect(cardsIn('tables', JSON.stringify(rows))).toEqual([]);
    // The cluster's files: tables, indexes and the write-ahead log (what a crash would replay).
    await cluster.query('postgres', 'CHECKPOINT');
    expect(filesUnder(cluster.data).flatMap(({ path, bytes }) => cardsIn(path, bytes.toString('latin1')))).toEqual([]);
    expect(cardsIn('the server log', existsSync(cluster.log) ? readFileSync(cluster.log, 'latin1') : '')).toEqual([]);
    expect(cardsIn('printed', printed.join('\n'))).toEqual([]);
  });
});
