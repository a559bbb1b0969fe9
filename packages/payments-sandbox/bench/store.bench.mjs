// `pnpm bench` (after `pnpm build`): the sandbox's state store at size. With 50k transactions stored, the same
// sandbox in memory and on its SQLite store (`--state FILE`), in one run, side by side:
// - start: from the call to the first answer, on the SQLite store (it reads every record into memory at open), each in
//   a fresh process (in this one, a start would pay for the garbage of the run before it), builds in turn;
// - a payment: a single-use token then a payment with an Idempotency-Key, one after the other (the store's answer
//   waits for its commit, fsync included); median and 95th percentile;
// - a search page: `GET /transactions/for-settlement-date` (a filter over every transaction) and `GET /transactions`.
// Before and after, in the same run: PAYKIT_BENCH_BASELINE names the `dist` folder of an earlier build inside this
// package (`cp -r dist bench/baseline/dist` before the change; git ignores every `dist`), measured the same way,
// with the ratios of this build to it. Timings are printed, never asserted. Targets (issue 22): a payment ≤ 10 ms
// and a search page ≤ 50 ms at 50k.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const stored = Number(process.env.PAYKIT_BENCH_TRANSACTIONS ?? 50_000);
const payments = Number(process.env.PAYKIT_BENCH_PAYMENTS ?? 200);
const searches = Number(process.env.PAYKIT_BENCH_SEARCHES ?? 20);
const baselineDist = process.env.PAYKIT_BENCH_BASELINE;
// Few searches for the baseline: before issue 22's change a search page at 50k took seconds.
const baselineSearches = Number(process.env.PAYKIT_BENCH_BASELINE_SEARCHES ?? 3);
const starts = Number(process.env.PAYKIT_BENCH_STARTS ?? 5);
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

/** The parts of one build the bench uses, from its `dist` folder. */
async function build(dist) {
  const at = (path) => import(pathToFileURL(resolve(dist, path)).href);
  const [{ startPaymentsSandbox }, { storeOf }, { openSqliteStore }] = await Promise.all([at('index.js'), at('sandbox.js'), at('state/sqlite-store.js')]);
  return { startPaymentsSandbox, storeOf, openSqliteStore };
}

// One start in a fresh process: the sandbox of `dist` on the state file `file`, from the call to the first answer.
const startScript = `
  const [dist, file, keys] = process.argv.slice(1);
  const { startPaymentsSandbox } = await import(dist);
  const { secret } = JSON.parse(keys);
  const startedAt = performance.now();
  const sandbox = await startPaymentsSandbox({ keys: JSON.parse(keys), stateFile: file });
  const first = await fetch(sandbox.url + '/transactions/1000000001', { headers: { accept: 'application/json', authorization: 'Basic ' + Buffer.from(secret[0] + ':').toString('base64') } });
  await first.arrayBuffer();
  const startMs = performance.now() - startedAt;
  await sandbox.close();
  console.log(JSON.stringify({ status: first.status, startMs }));
`;

function startInFreshProcess(dist, file) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', startScript, pathToFileURL(join(dist, 'index.js')).href, file, JSON.stringify(keys)], { encoding: 'utf8' });
  const result = child.status === 0 ? JSON.parse(child.stdout.trim().split('\n').at(-1)) : undefined;
  if (result?.status !== 200) throw new Error(`a start in a fresh process failed: ${child.stderr}`);
  return result.startMs;
}

async function measure(label, start, searches) {
  const sandbox = await start();

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
      body: JSON.stringify({ transactionType: 'PAYMENT', singleUseTokenId, principalAmount: 12.5, currency: 'AUD', eci: 'INTERNET', entryMode: 'STORED_CREDENTIAL', supplierBusinessCode: 'TEST_BUSINESS' }),
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
    paymentMedian: percentile(pay.map((p) => p.paymentMs), 50),
    paymentP95: percentile(pay.map((p) => p.paymentMs), 95),
    tokenMedian: percentile(pay.map((p) => p.tokenMs), 50),
    settlementMedian: percentile(bySettlementDate, 50),
    listMedian: percentile(list, 50),
  };
}

const here = fileURLToPath(new URL('.', import.meta.url));
const builds = [{ name: 'this build', dist: join(here, '../dist'), searches }];
if (baselineDist) builds.unshift({ name: 'baseline', dist: resolve(baselineDist), searches: baselineSearches });
for (const b of builds) {
  if (!existsSync(join(b.dist, 'index.js'))) throw new Error(`${b.dist}: no built sandbox there (pnpm build; PAYKIT_BENCH_BASELINE names a dist folder)`);
  Object.assign(b, await build(b.dist));
}
// Node's own fetch loads its HTTP client at first use: loaded here, so that no start below pays for it.
await (await fetch('data:,')).arrayBuffer();

const dir = mkdtempSync(join(tmpdir(), 'paykit-store-bench-'));
try {
  const seeded = join(dir, 'seeded.db');
  const seeding = performance.now();
  const current = builds.at(-1);
  const store = current.openSqliteStore(seeded);
  fill(store.state);
  await store.commit();
  await store.close();
  console.log(`seeded ${stored} transactions into the SQLite store in ${(performance.now() - seeding).toFixed(0)} ms (one transaction)`);

  // Each SQLite run opens its own copy of the seeded store: the payments of one run are not in the next one's.
  let copies = 0;
  const copy = () => {
    const file = join(dir, `run-${++copies}.db`);
    copyFileSync(seeded, file);
    return file;
  };
  const startTimes = new Map(builds.map((b) => [b.name, []]));
  // In turn, the order reversed every other round: a start right after another one's may be slower.
  for (let i = 0; i < starts; i++) for (const b of i % 2 ? [...builds].reverse() : builds) startTimes.get(b.name).push(startInFreshProcess(b.dist, copy()));

  const results = [];
  for (const store of ['in memory', 'SQLite store']) {
    for (const b of builds) {
      const label = `${store}${builds.length > 1 ? `, ${b.name}` : ''}`;
      const start =
        store === 'in memory'
          ? async () => {
              const sandbox = await b.startPaymentsSandbox({ keys });
              fill(b.storeOf(sandbox).state);
              return sandbox;
            }
          : () => b.startPaymentsSandbox({ keys, stateFile: copy() });
      results.push({ store, build: b.name, ...(await measure(label, start, b.searches)) });
    }
  }

  const ms = (value) => `${value.toFixed(1)} ms`.padStart(12);
  const width = Math.max(...results.map((r) => r.label.length)) + 2;
  console.log(`\npayments sandbox with ${stored} transactions stored (${payments} payments, ${builds.map((b) => `${b.searches} searches for ${b.name}`).join(', ')}; medians)`);
  console.log(`${''.padEnd(width)}${'payment'.padStart(12)}${'p95'.padStart(12)}${'token'.padStart(12)}${'by date'.padStart(12)}${'list'.padStart(12)}`);
  for (const r of results) {
    console.log(`${r.label.padEnd(width)}${ms(r.paymentMedian)}${ms(r.paymentP95)}${ms(r.tokenMedian)}${ms(r.settlementMedian)}${ms(r.listMedian)}`);
  }
  const of = (store, name) => results.find((r) => r.store === store && r.build === name);
  if (baselineDist) {
    const ratio = (after, before) => `${(after / before).toFixed(3)}x`.padStart(12);
    console.log(`\nthis build / baseline${''.padEnd(Math.max(0, width - 21))}${'payment'.padStart(12)}${'p95'.padStart(12)}${'token'.padStart(12)}${'by date'.padStart(12)}${'list'.padStart(12)}`);
    for (const store of ['in memory', 'SQLite store']) {
      const [before, after] = [of(store, 'baseline'), of(store, 'this build')];
      const cells = ['paymentMedian', 'paymentP95', 'tokenMedian', 'settlementMedian', 'listMedian'].map((k) => ratio(after[k], before[k]));
      console.log(`${store.padEnd(width)}${cells.join('')}`);
    }
  }
  const startOf = (name) => percentile(startTimes.get(name), 50);
  console.log(
    `\nstart to the first answer on the SQLite store, fresh process, median of ${starts}: ` +
      builds.map((b) => `${b.name} ${startOf(b.name).toFixed(0)} ms`).join(', ') +
      (baselineDist ? ` (this build / baseline ${(startOf('this build') / startOf('baseline')).toFixed(3)}x)` : ''),
  );
  const [memory, sqlite] = [of('in memory', 'this build'), of('SQLite store', 'this build')];
  console.log(
    `\nthis build, SQLite / in memory: payment ${(sqlite.paymentMedian / memory.paymentMedian).toFixed(2)}x, search by date ${(sqlite.settlementMedian / memory.settlementMedian).toFixed(2)}x; ` +
      `targets: payment ≤ 10 ms (${sqlite.paymentMedian <= 10 ? 'met' : 'NOT met'}), search page ≤ 50 ms (${Math.max(sqlite.settlementMedian, sqlite.listMedian) <= 50 ? 'met' : 'NOT met'})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
