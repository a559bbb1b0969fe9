// `node bench/postgres-gc.bench.mjs` (after `pnpm build`, with Debian's PostgreSQL): what the young-generation garbage
// collector does in sandbox processes writing to PostgreSQL, with allocation-site pretenuring as the sandbox sets it
// (off: src/state/allocation-site-pretenuring.ts) and as V8 has it by default (on: the processes are started with
// `--allocation-site-pretenuring`, which the sandbox then leaves alone). Two pairs of processes, each pair on a database
// of its own in one throwaway cluster, paid in turn in the same rounds (10 connections to each process, payments for a
// stored customer, as the main bench's PostgreSQL arm), every process run under `--trace-gc-nvp`. Per pair: payments per
// second, and per young-generation collection the bytes promoted to the old generation and the pause. Printed, never
// asserted. PAYKIT_BENCH_SECONDS (default 3) per round, PAYKIT_BENCH_ROUNDS (default 4).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Pool } from 'undici';
import { findPostgres, startPostgres } from '../test/support/postgres-cluster.mjs';

const seconds = Number(process.env.PAYKIT_BENCH_SECONDS ?? 3);
const rounds = Number(process.env.PAYKIT_BENCH_ROUNDS ?? 4);
const keys = { secret: 'sk_bench_secret', publishable: 'pk_bench_publishable' };
const authorization = (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const json = { accept: 'application/json', 'content-type': 'application/json' };
const sandboxProcess = fileURLToPath(new URL('../test/support/sandbox-process.mjs', import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A sandbox process under `--trace-gc-nvp`: its young-generation collections are collected from its output. */
function startSandbox(url, nodeOptions) {
  const child = spawn(process.execPath, ['--trace-gc-nvp', ...nodeOptions, sandboxProcess, url, keys.secret, keys.publishable], { stdio: ['ignore', 'pipe', 'inherit'] });
  const scavenges = [];
  let pending = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const ready = /payments-sandbox ready: (\S+)/.exec(line);
        if (ready) resolve({ url: ready[1], scavenges, stop: () => (child.kill('SIGTERM'), new Promise((done) => child.once('exit', done))) });
        if (!line.includes(' gc=s ')) continue;
        const fields = Object.fromEntries(line.split(' ').filter((part) => part.includes('=')).map((part) => part.split('=')));
        scavenges.push({ promoted: Number(fields.promoted), pause: Number(fields.pause) });
      }
    });
    child.once('exit', (code) => reject(new Error(`a sandbox process exited (${code}) before it was ready`)));
  });
}

async function call(base, path, key, body) {
  const response = await fetch(base + path, { method: 'POST', headers: { ...json, authorization: authorization(key) }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A customer with a stored card on the pair's database: the payment every request of the pair makes. */
async function seed(base) {
  const token = await call(base, '/single-use-tokens', keys.publishable, {
    supplierBusinessCode: 'TEST_BUSINESS',
    accountType: 'CREDIT_CARD',
    cardNumber: '4111111111111111',
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
  });
  const { customerId } = await call(base, '/customers', keys.secret, { customerNumber: 'GC-1', customerName: 'GC bench' });
  await call(base, `/customers/${customerId}/accounts`, keys.secret, { singleUseTokenId: token.singleUseTokenId });
  return { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
}

/** Payments per second made by the pair with 10 requests in flight to each process for `duration` seconds. */
async function load(pair, duration) {
  let made = 0;
  const deadline = performance.now() + duration * 1000;
  const started = performance.now();
  await Promise.all(
    pair.processes.flatMap((sandbox) => {
      const { origin, pathname } = new URL(sandbox.url);
      const pool = pair.pools.get(sandbox) ?? new Pool(origin, { connections: 10 });
      pair.pools.set(sandbox, pool);
      return Array.from({ length: 10 }, async () => {
        while (performance.now() < deadline) {
          const response = await pool.request({ method: 'POST', path: `${pathname}/transactions`, headers: { ...json, authorization: authorization(keys.secret) }, body: pair.body });
          const text = await response.body.text();
          if (response.statusCode === 201 && text.includes('"receiptNumber"')) made += 1;
        }
      });
    }),
  );
  return made / ((performance.now() - started) / 1000);
}

const bin = findPostgres();
if (!bin) {
  console.log('postgres-gc bench: skipped, no PostgreSQL found under /usr/lib/postgresql');
  process.exit(0);
}
const cluster = await startPostgres(bin);
const url = (database) => `postgres://${cluster.user}:${encodeURIComponent(cluster.password)}@127.0.0.1:${cluster.port}/${database}`;
const pairs = [];
try {
  const admin = new pg.Client({ connectionString: url('postgres') });
  await admin.connect();
  for (const database of ['as_set', 'v8_default']) await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  for (const [label, database, nodeOptions] of [
    ['pretenuring off (as the sandbox sets it)', 'as_set', []],
    ['pretenuring on (V8 default, forced)', 'v8_default', ['--allocation-site-pretenuring']],
  ]) {
    const processes = [await startSandbox(url(database), nodeOptions), await startSandbox(url(database), nodeOptions)];
    pairs.push({ label, processes, pools: new Map(), body: JSON.stringify(await seed(processes[0].url)), rates: [], spans: [] });
  }
  for (const pair of pairs) await load(pair, 2); // warm-up: V8 optimises, and makes its pretenuring decisions
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < pairs.length; k++) {
      const pair = pairs[(round + k) % pairs.length];
      const before = pair.processes.map((sandbox) => sandbox.scavenges.length);
      pair.rates.push(await load(pair, seconds));
      pair.spans.push(pair.processes.map((sandbox, p) => [before[p], sandbox.scavenges.length]));
    }
  }
  console.log(`sandbox processes on PostgreSQL, two per database, ${rounds} rounds of ${seconds} s; young-generation collections during the rounds`);
  for (const pair of pairs) {
    // The collections that happened during the pair's own rounds only.
    const collections = pair.spans.flatMap((span) => span.flatMap(([from, to], p) => pair.processes[p].scavenges.slice(from, to)));
    pair.promoted = collections.reduce((sum, c) => sum + c.promoted, 0) / Math.max(1, collections.length);
    pair.pause = collections.reduce((sum, c) => sum + c.pause, 0) / Math.max(1, collections.length);
    console.log(`  ${pair.label.padEnd(42)} ${median(pair.rates).toFixed(0).padStart(6)} payments/s   ${(pair.promoted / 1048576).toFixed(2)} MB promoted and ${pair.pause.toFixed(2)} ms pause per collection (${collections.length} collections)`);
  }
  const [off, on] = pairs;
  const byRound = median(off.rates.map((rate, round) => rate / on.rates[round]));
  console.log(`  off / on: ${byRound.toFixed(3)}x payments per second (median of the rounds' ratios), ${(on.promoted / off.promoted).toFixed(2)}x less promoted, ${(on.pause / off.pause).toFixed(2)}x shorter pauses`);
} finally {
  for (const pair of pairs) {
    await Promise.all([...pair.pools.values()].map((pool) => pool.close().catch(() => {})));
    await Promise.all(pair.processes.map((sandbox) => sandbox.stop()));
  }
  await cluster.destroy();
}
