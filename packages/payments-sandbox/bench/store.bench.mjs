// `pnpm bench` (after `pnpm build`): the sandbox's state store at size. With 50k transactions stored, the same
// sandbox in memory and on its SQLite store (`--state FILE`), in one run, side by side:
// - start: from the call to the first answer (the store reads every record into memory at open);
// - a payment: a single-use token then a payment with an Idempotency-Key, one after the other (the store's answer
//   waits for its commit, fsync included); median and 95th percentile;
// - a search page: `GET /transactions/for-settlement-date` (a filter over every transaction) and `GET /transactions`.
// Timings are printed, never asserted. Targets (issue 22): a payment ≤ 10 ms and a search page ≤ 50 ms at 50k.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPaymentsSandbox } from '../dist/index.js';
import { storeOf } from '../dist/sandbox.js';
import { openSqliteStore } from '../dist/state/sqlite-store.js';

const stored = Number(process.env.PAYKIT_BENCH_TRANSACTIONS ?? 50_000);
const payments = Number(process.env.PAYKIT_BENCH_PAYMENTS ?? 200);
// Few searches: at 50k a search page takes seconds today (every transaction is modelled before the filter).
const searches = Number(process.env.PAYKIT_BENCH_SEARCHES ?? 5);
const keys = { secret: ['sk_bench_store'], publishable: ['pk_bench_store'] };
const authorization = (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const json = { accept: 'application/json', 'content-type': 'application/json' };
const settlementDate = '2026-01-15';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};

function transaction(n) {
  return {
    receiptNumber: String(1_000_000_000 + n),
    createdAt: Date.parse(`${settlementDate}T00:00:00Z`) - 86_400_000 * (n % 30) + n,
    transactionType: 'PAYMENT',
    status: 'Approved',
    principal: 1000 + (n % 500),
    surcharge: 0,
    currency: 'AUD',
    supplierBusinessCode: 'TEST_BUSINESS',
    refunded: 0,
    accountType: 'CREDIT_CARD',
    ipAddress: null,
    comment: null,
    metadata: { orderId: `seed-${n}` },
    request: { principalAmount: (1000 + (n % 500)) / 100, metadata: { orderId: `seed-${n}` } },
  };
}

function fill(state) {
  for (let n = 1; n <= stored; n++) {
    const record = transaction(n);
    state.transactions.set(record.receiptNumber, record);
  }
  state.sequence = stored;
}

async function measure(label, start) {
  const startedAt = performance.now();
  const sandbox = await start();
  const first = await fetch(`${sandbox.url}/transactions/${1_000_000_001}`, { headers: { ...json, authorization: authorization(keys.secret[0]) } });
  await first.arrayBuffer();
  const startMs = performance.now() - startedAt;

  const pay = [];
  for (let i = 0; i < payments; i++) {
    const begun = performance.now();
    const token = await fetch(`${sandbox.url}/single-use-tokens`, {
      method: 'POST',
      headers: { ...json, authorization: authorization(keys.publishable[0]) },
      body: JSON.stringify({ accountType: 'CREDIT_CARD', supplierBusinessCode: 'TEST_BUSINESS', cardholderName: 'Bench', cardNumber: '4111111111111111', expiryDateMonth: '12', expiryDateYear: String(new Date().getUTCFullYear() + 3) }),
    });
    const { singleUseTokenId } = await token.json();
    const tokenMs = performance.now() - begun;
    const paid = performance.now();
    const payment = await fetch(`${sandbox.url}/transactions`, {
      method: 'POST',
      headers: { ...json, authorization: authorization(keys.secret[0]), 'Idempotency-Key': `bench-${label}-${i}` },
      body: JSON.stringify({ transactionType: 'PAYMENT', singleUseTokenId, principalAmount: 12.5, currency: 'AUD', eci: 'INTERNET', entryMode: 'ECOMMERCE', supplierBusinessCode: 'TEST_BUSINESS' }),
    });
    await payment.arrayBuffer();
    if (payment.status !== 201) throw new Error(`${label}: payment answered ${payment.status}`);
    pay.push({ tokenMs, paymentMs: performance.now() - paid });
  }

  const search = async (path) => {
    const times = [];
    for (let i = 0; i < searches; i++) {
      const begun = performance.now();
      const response = await fetch(`${sandbox.url}${path}`, { headers: { ...json, authorization: authorization(keys.secret[0]) } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${label}: ${path} answered ${response.status}`);
      times.push(performance.now() - begun);
    }
    return times;
  };
  const bySettlementDate = await search(`/transactions/for-settlement-date?settlementDate=${settlementDate}`);
  const list = await search('/transactions');
  await sandbox.close();
  return {
    label,
    startMs,
    paymentMedian: percentile(pay.map((p) => p.paymentMs), 50),
    paymentP95: percentile(pay.map((p) => p.paymentMs), 95),
    tokenMedian: percentile(pay.map((p) => p.tokenMs), 50),
    settlementMedian: percentile(bySettlementDate, 50),
    listMedian: percentile(list, 50),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'paykit-store-bench-'));
try {
  const file = join(dir, 'state.db');
  const seeding = performance.now();
  const store = openSqliteStore(file);
  fill(store.state);
  await store.commit();
  await store.close();
  console.log(`seeded ${stored} transactions into the SQLite store in ${(performance.now() - seeding).toFixed(0)} ms (one transaction)`);

  const results = [];
  results.push(
    await measure('in memory', async () => {
      const sandbox = await startPaymentsSandbox({ keys });
      fill(storeOf(sandbox).state);
      return sandbox;
    }),
  );
  results.push(await measure('SQLite store', () => startPaymentsSandbox({ keys, stateFile: file })));

  const ms = (value) => `${value.toFixed(1)} ms`.padStart(12);
  console.log(`\npayments sandbox with ${stored} transactions stored (${payments} payments, ${searches} searches each; medians)`);
  console.log(`${''.padEnd(14)}${'start'.padStart(12)}${'payment'.padStart(12)}${'p95'.padStart(12)}${'token'.padStart(12)}${'by date'.padStart(12)}${'list'.padStart(12)}`);
  for (const r of results) {
    console.log(`${r.label.padEnd(14)}${ms(r.startMs)}${ms(r.paymentMedian)}${ms(r.paymentP95)}${ms(r.tokenMedian)}${ms(r.settlementMedian)}${ms(r.listMedian)}`);
  }
  const [memory, sqlite] = results;
  console.log(
    `\nSQLite / in memory: payment ${(sqlite.paymentMedian / memory.paymentMedian).toFixed(2)}x, search by date ${(sqlite.settlementMedian / memory.settlementMedian).toFixed(2)}x; ` +
      `targets: payment ≤ 10 ms (${sqlite.paymentMedian <= 10 ? 'met' : 'NOT met'}), search page ≤ 50 ms (${Math.max(sqlite.settlementMedian, sqlite.listMedian) <= 50 ? 'met' : 'NOT met'})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
