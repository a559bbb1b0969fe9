import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublishableClient, createSecretClient } from '@paykit/payments';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPaymentsSandbox } from '../src/index.js';
import { storeOf } from '../src/sandbox.js';
import { parseState, serialiseState } from '../src/state/persistence.js';
import { openSqliteStore } from '../src/state/sqlite-store.js';
import { emptyState } from '../src/state/state.js';
import { basic, cardTokenRequest, paymentRequest } from './support.js';
import { startSandboxProcess } from './support/state-process.js';

const keys = { secret: 'sk_state_test', publishable: 'pk_state_test' };

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-state-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const headers = { authorization: basic(keys.secret), accept: 'application/json', 'content-type': 'application/json' };

/** `fs` as SQLite's file layer (node-sqlite3-wasm's VFS) calls it: `fs.writeSync` looked up at each call. */
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/** Makes every write to `paths` fail as a full disk does, until the returned function is called. */
function diskFull(paths: string[]): () => void {
  const inodes = new Set(paths.filter((path) => existsSync(path)).map((path) => statSync(path).ino));
  const original = fs.writeSync;
  fs.writeSync = ((fd: number, ...rest: unknown[]) => {
    if (inodes.has(fs.fstatSync(fd).ino)) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (original as (...args: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync;
  return () => void (fs.writeSync = original);
}

describe('payments sandbox: --state FILE (SQLite store)', () => {
  it('a payment the disk refuses (ENOSPC) is answered 500 and leaves nothing behind, now or after a restart; the next payment is saved', async () => {
    const options = { stateFile: file, keys: { secret: [keys.secret], publishable: [keys.publishable] } };
    let sandbox = await startPaymentsSandbox(options);
    const payments = () => createSecretClient({ apiKey: keys.secret, baseUrl: sandbox.url, retry: { maxRetries: 0 } });
    const tokens = () => createPublishableClient({ apiKey: keys.publishable, baseUrl: sandbox.url });
    const token = async () => ((await tokens().singleUseTokens.create(cardTokenRequest() as never)).data as { singleUseTokenId: string }).singleUseTokenId;
    const receipts = async () => ((await payments().transactions.list()).items as { receiptNumber: string }[]).map((t) => t.receiptNumber);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const first = await payments().transactions.create(paymentRequest(await token(), 10) as never);
      const tokenId = await token();
      const restore = diskFull([file, `${file}-wal`]);
      let refused;
      try {
        refused = await fetch(`${sandbox.url}/transactions`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': 'full-disk' }, body: JSON.stringify(paymentRequest(tokenId, 20)) });
      } finally {
        restore();
      }
      expect(refused.status).toBe(500);
      // Not in the lists, not under its key: what a restart would show.
      const seen = await receipts();
      expect(seen).toEqual([(first.data as { receiptNumber: string }).receiptNumber]);
      const next = await payments().transactions.create(paymentRequest(tokenId, 20) as never, { idempotencyKey: 'full-disk' });
      expect(next.status, 'the token was not used and the key not taken by the refused payment').toBe(201);
      const after = await receipts();
      expect(after).toHaveLength(2);
      await sandbox.close();
      sandbox = await startPaymentsSandbox(options);
      expect(await receipts(), 'a restart shows what was shown before it').toEqual(after);
    } finally {
      logged.mockRestore();
      await sandbox.close();
    }
  });

  it('keeps the clock, scheduled work, subscriptions and idempotency records across a restart', async () => {
    const settings = { aliasRegistrationDelayMs: 60_000 };
    const first = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] }, settings });
    await first.control.advanceClock({ ms: 3_600_000 });
    await first.control.createWebhookSubscription({ url: 'http://127.0.0.1:9/hooks', secret: 'whsec', eventTypes: ['alias.payment.received'] });
    const created = await fetch(`${first.url}/aliases`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': 'alias-1' },
      body: JSON.stringify({ aliasAddress: 'kept@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }),
    });
    const alias = (await created.json()) as { id: string; status: string };
    expect(alias.status).toBe('PENDING');
    await first.close();
    expect(existsSync(file)).toBe(true);

    const second = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] }, settings });
    try {
      expect((await second.control.getClock()).offsetMs).toBeGreaterThanOrEqual(3_600_000);
      expect(await second.control.listWebhookSubscriptions()).toHaveLength(1);
      const replay = await fetch(`${second.url}/aliases`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': 'alias-1' },
        body: JSON.stringify({ aliasAddress: 'other@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }),
      });
      expect(((await replay.json()) as { id: string }).id).toBe(alias.id);
      await second.control.advanceClock({ ms: 60_000 });
      const after = await fetch(`${second.url}/aliases/${alias.id}`, { headers });
      expect(((await after.json()) as { status: string }).status).toBe('REGISTERED');
    } finally {
      await second.close();
    }
  });

  it('refuses to start from a file that is not a sandbox state', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '{"customers": []}');
    await expect(startPaymentsSandbox({ stateFile: file })).rejects.toThrow(/not a version 1 sandbox state file/);
  });

  it('writes every change the requests, the clock and webhook deliveries make: the store reads back the state in memory', async () => {
    const sandbox = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret], publishable: [keys.publishable] }, settings: { aliasRegistrationDelayMs: 1_000, webhookRetryDelaysMs: [60_000] } });
    try {
      const secret = createSecretClient({ apiKey: keys.secret, baseUrl: sandbox.url, retry: { delayMs: 5 } });
      const publishable = createPublishableClient({ apiKey: keys.publishable, baseUrl: sandbox.url, retry: { delayMs: 5 } });
      const token = async () => ((await publishable.singleUseTokens.create(cardTokenRequest() as never)).data as { singleUseTokenId: string }).singleUseTokenId;
      await sandbox.control.createWebhookSubscription({ url: 'http://127.0.0.1:9/hooks', secret: 'whsec' });
      const pay = async (amount: number) => (await secret.transactions.create(paymentRequest(await token(), amount) as never)).data as { receiptNumber: string };
      const refunded = await pay(20);
      await secret.transactions.create({ transactionType: 'REFUND', originalReceiptNumber: refunded.receiptNumber, principalAmount: 5, entryMode: 'STORED_CREDENTIAL', supplierBusinessCode: 'TEST_BUSINESS' } as never);
      await secret.transactions.void((await pay(30)).receiptNumber);
      await pay(10.52); // pending: settles on the clock
      const customer = (await secret.customers.create({ customerNumber: 'C1', customerName: 'First' } as never)).data as { customerId: string };
      await secret.customers.update(customer.customerId, { customerName: 'Changed' } as never);
      await secret.aliases.register({ aliasAddress: 'eq@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never);
      const agreement = (await secret.mandateAgreements.create({ reference: 'R1' } as never)).data as { agreementToken: string };
      await secret.mandateAgreements.update(agreement.agreementToken, { reference: 'R2' } as never);
      await sandbox.control.advanceClock({ ms: 5_000 });
      await sandbox.webhooksIdle();
      const inMemory = serialiseState(storeOf(sandbox)!.state);
      expect(JSON.parse(inMemory).collections.deliveries.some((d: { attempts: unknown[] }) => d.attempts.length > 0)).toBe(true);
      await sandbox.close();

      const store = openSqliteStore(file);
      try {
        expect(JSON.parse(serialiseState(store.state))).toEqual(JSON.parse(inMemory));
      } finally {
        await store.close();
      }
    } finally {
      await sandbox.close();
    }
  });

  it('a write after a search over every transaction writes its own rows only, not the records the search read', async () => {
    const seed = openSqliteStore(file);
    for (let n = 1; n <= 2_000; n++) {
      const receiptNumber = String(1_000_000_000 + n);
      seed.state.transactions.set(receiptNumber, {
        receiptNumber, createdAt: 1_700_000_000_000 + n, transactionType: 'PAYMENT', status: 'Approved', principal: 1000, surcharge: 0, currency: 'AUD',
        supplierBusinessCode: 'TEST_BUSINESS', refunded: 0, ipAddress: null, comment: null, request: { note: 'x'.repeat(500) },
      });
    }
    seed.state.sequence = 2_000;
    await seed.commit();
    await seed.close();
    const sandbox = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] } });
    try {
      const search = await fetch(`${sandbox.url}/transactions/for-settlement-date?settlementDate=2023-11-14`, { headers });
      expect(search.status).toBe(200);
      const before = storeOf(sandbox)!.rowsWritten;
      const created = await fetch(`${sandbox.url}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerNumber: 'AFTER', customerName: 'After' }) });
      expect(created.status).toBe(201);
      // The customer, the sequence and the clock offset: not the 2000 transactions the search looked up.
      expect(storeOf(sandbox)!.rowsWritten - before).toBeLessThanOrEqual(3);
    } finally {
      await sandbox.close();
    }
  });

  it("a payment taken for a customer writes the payment, not the customer and account it only looked up", async () => {
    const sandbox = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    try {
      const post = async (path: string, body: unknown, key = keys.secret) => {
        const response = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { ...headers, authorization: basic(key) }, body: JSON.stringify(body) });
        expect(response.status, path).toBeLessThan(300);
        return (await response.json()) as Record<string, string>;
      };
      const token = await post('/single-use-tokens', cardTokenRequest(), keys.publishable);
      const { customerId } = await post('/customers', { customerNumber: 'LOOKED-UP', customerName: 'Looked up' });
      await post(`/customers/${customerId}/accounts`, { singleUseTokenId: token.singleUseTokenId });
      const payment = { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
      await post('/transactions', payment);
      const store = storeOf(sandbox)!;
      const before = store.rowsWritten;
      const { receiptNumber } = await post('/transactions', payment);
      expect(receiptNumber).toMatch(/\d/);
      // The payment, the sequence and the clock offset (the customer was looked up: written again, it would be 4).
      expect(store.rowsWritten - before).toBe(3);
    } finally {
      await sandbox.close();
    }
  });

  it('migrates a state file of version 1 on first open and keeps the old file beside the database', async () => {
    const old = emptyState();
    old.sequence = 41;
    old.clockOffsetMs = 5_000;
    old.customers.set('1000000041', { customerId: '1000000041', createdAt: 1, fields: { customerNumber: 'OLD-1' } });
    await writeFile(file, serialiseState(old));

    const sandbox = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] } });
    try {
      expect((await fetch(`${sandbox.url}/customers/1000000041`, { headers })).status).toBe(200);
      const created = await fetch(`${sandbox.url}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerNumber: 'NEW-1', customerName: 'New' }) });
      expect(((await created.json()) as { customerId: string }).customerId, 'numbers go on from the old file').toBe('1000000042');
    } finally {
      await sandbox.close();
    }
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(parseState(await readFile(`${file}.v1.json`, 'utf8'), file).customers.has('1000000041'), 'the old file is kept').toBe(true);
    expect(existsSync(`${file}.migrating`)).toBe(false);
  });

  it('finishes a migration cut short after the old file was set aside', async () => {
    const old = emptyState();
    old.customers.set('1000000001', { customerId: '1000000001', createdAt: 1, fields: {} });
    await writeFile(file, serialiseState(old));
    await openSqliteStore(file).close();
    // As if killed between the two renames: the database is still under its temporary name.
    await rename(file, `${file}.migrating`);
    const store = openSqliteStore(file);
    try {
      expect(store.state.customers.has('1000000001')).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('the database refuses a second answer under an Idempotency-Key within its lifetime, and a number sequence that goes back', async () => {
    const store = openSqliteStore(file);
    try {
      const response = { status: 201, headers: {} };
      store.state.idempotency.set('key-1', { key: 'key-1', createdAt: 1_000, response });
      store.state.sequence = 10;
      await store.commit();
      // A second record under the key, as a process that had not seen the first would write it.
      store.state.idempotency.set('key-1', { key: 'key-1', createdAt: 2_000, response: { status: 202, headers: {} } });
      await expect(store.commit()).rejects.toThrow(/already holds an answer under this Idempotency-Key/);
    } finally {
      await store.close();
    }
    const again = openSqliteStore(file);
    try {
      expect(again.state.idempotency.get('key-1')?.response.status).toBe(201);
      again.state.sequence = 9;
      await expect(again.commit()).rejects.toThrow(/sequence would go back/);
    } finally {
      await again.close();
    }
  });

  it('refuses a second process on the same file, and takes over the file of a killed one', async () => {
    const owner = await startSandboxProcess(file, keys, { PAYKIT_SANDBOX_CRASH_AT: 'commit:after' });
    await expect(startPaymentsSandbox({ stateFile: file })).rejects.toThrow(/is in use by process \d+/);
    await fetch(`${owner.url}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerNumber: 'K1', customerName: 'Killed' }) }).catch(() => undefined);
    expect(await owner.exited).toBe('SIGKILL');
    expect(existsSync(`${file}.lock`), 'the lock the killed process left').toBe(true);
    const next = await startPaymentsSandbox({ stateFile: file, keys: { secret: [keys.secret] } });
    try {
      const list = await fetch(`${next.url}/customers?customerNumber=K1`, { headers });
      expect(list.status).toBe(200);
    } finally {
      await next.close();
    }
  });
});

describe('payments sandbox: a reset, in memory and with --state FILE', () => {
  // Tests made on fixtures after a reset (the contract tests' tolerance suite) rely on both halves: the request is
  // processed again, and what it makes gets an identifier no earlier answer holds.
  it.each([
    { store: 'in memory', stateFile: false },
    { store: 'with --state FILE', stateFile: true },
  ])('$store: forgets records and Idempotency-Keys but not the number sequence, so no identifier is handed out twice', async ({ stateFile }) => {
    const sandbox = await startPaymentsSandbox({ ...(stateFile ? { stateFile: file } : {}), keys: { secret: [keys.secret] } });
    try {
      const create = async () => {
        const response = await fetch(`${sandbox.url}/customers`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': 'reset-1' },
          body: JSON.stringify({ customerNumber: 'R1', customerName: 'Reset' }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { customerId: string }).customerId;
      };
      const before = await create();
      await sandbox.control.resetSandbox();
      expect((await fetch(`${sandbox.url}/customers/${before}`, { headers })).status, 'forgotten').toBe(404);
      const after = await create();
      expect((await fetch(`${sandbox.url}/customers/${after}`, { headers })).status, 'made again, not replayed').toBe(200);
      expect(after, 'a new identifier').not.toBe(before);
      expect(Number(after)).toBeGreaterThan(Number(before));
    } finally {
      await sandbox.close();
    }
  });
});
