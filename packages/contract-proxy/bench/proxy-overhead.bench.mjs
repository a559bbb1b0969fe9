// `pnpm --filter @paykit/contract-proxy bench`: what the validating proxy costs in front of the payments sandbox,
// measured side by side in one run. The sandbox and the proxy run as their own processes (as a merchant runs them);
// wrk is the load (keep-alive, loopback only). The same GET and the same POST go direct to the sandbox and through
// the proxy, the arms interleaved round after round; printed: the median requests per second and p50 latency of
// each, and the ratios. Then the memory of a proxy recording to disk over PAYKIT_BENCH_RECORDED exchanges.
//
// Environment: PAYKIT_BENCH_CONNECTIONS (10), PAYKIT_BENCH_SECONDS per arm (5), PAYKIT_BENCH_ROUNDS (5),
// PAYKIT_BENCH_RECORDED (100000; 0 skips the memory part).
import { execFile, fork } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const connections = Number(process.env.PAYKIT_BENCH_CONNECTIONS ?? 10);
const seconds = Number(process.env.PAYKIT_BENCH_SECONDS ?? 5);
const rounds = Number(process.env.PAYKIT_BENCH_ROUNDS ?? 5);
const recorded = Number(process.env.PAYKIT_BENCH_RECORDED ?? 100_000);
const serve = fileURLToPath(new URL('./serve.mjs', import.meta.url));
const postScript = fileURLToPath(new URL('./post-transaction.lua', import.meta.url));

/** A server of serve.mjs in its own process, once it printed where it listens. */
function start(args) {
  const child = fork(serve, args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line) resolve({ ...JSON.parse(line), child, stop: () => (child.kill('SIGTERM'), exited) });
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs ${args.join(' ')} exited (${code}):\n${output}`)));
  });
}

/** The process's memory after a full collection, and the exchanges it has seen. */
function memory(server) {
  return new Promise((resolve) => {
    server.child.once('message', resolve);
    server.child.send('memory');
  });
}

const basic = (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function post(base, path, key, body) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: basic(key), 'idempotency-key': `bench-setup-${path}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One wrk run: requests per second, p50 latency in ms, and the non-2xx count. */
async function wrk(url, extra, env = {}) {
  const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...extra, url], { env: { ...process.env, ...env } });
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const [, value, unit] = /\s50%\s+([\d.]+)(us|ms|s)\b/.exec(stdout) ?? [];
  const p50 = Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? NaN);
  const failed = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { perSecond, p50, failed };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

const sandbox = await start(['sandbox']);
const proxy = await start(['proxy', sandbox.url]).catch(async (error) => {
  await sandbox.stop();
  throw error;
});
try {
  const token = await post(sandbox.url, '/single-use-tokens', sandbox.publishableKey, {
    supplierBusinessCode: 'TEST_BUSINESS',
    accountType: 'CREDIT_CARD',
    cardNumber: '4111111111111111',
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
  });
  const { customerId } = await post(sandbox.url, '/customers', sandbox.secretKey, { customerNumber: 'BENCH-PROXY', customerName: 'Bench' });
  await post(sandbox.url, `/customers/${customerId}/accounts`, sandbox.secretKey, { singleUseTokenId: token.singleUseTokenId });
  const payment = { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
  const { receiptNumber } = await post(sandbox.url, '/transactions', sandbox.secretKey, payment);

  const auth = basic(sandbox.secretKey);
  const arms = [];
  for (const [route, base] of [['direct', sandbox.url], ['proxy', proxy.url]]) {
    const path = new URL(base).pathname;
    arms.push({ name: `GET ${route}`, run: () => wrk(`${base}/transactions/${receiptNumber}`, ['-H', `Authorization: ${auth}`, '-H', 'Accept: application/json']) });
    arms.push({
      name: `POST ${route}`,
      run: () => wrk(new URL(base).origin, ['-s', postScript], { PAYKIT_BENCH_PATH: `${path}/transactions`, PAYKIT_BENCH_AUTH: auth, PAYKIT_BENCH_BODY: JSON.stringify(payment) }),
    });
  }
  const loadBefore = load();
  for (const arm of arms) await arm.run(); // warm-up: both processes' JIT
  const results = new Map(arms.map((arm) => [arm.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < arms.length; k++) {
      const arm = arms[(round + k) % arms.length];
      results.get(arm.name).push(await arm.run());
    }
  }
  console.log(`contract proxy in front of the payments sandbox, one run: wrk -t1 -c${connections}, ${seconds} s per arm, median of ${rounds} interleaved rounds`);
  console.log(`load average before: ${loadBefore}; after: ${load()} (2 cores shared; the targets assume a quiet machine)`);
  for (const method of ['GET', 'POST']) {
    const of = (route, field) => median(results.get(`${method} ${route}`).map((result) => result[field]));
    const direct = { perSecond: of('direct', 'perSecond'), p50: of('direct', 'p50') };
    const proxied = { perSecond: of('proxy', 'perSecond'), p50: of('proxy', 'p50') };
    const path = method === 'GET' ? 'GET  /transactions/{receiptNumber}' : 'POST /transactions';
    console.log(
      `${path.padEnd(36)} direct ${direct.perSecond.toFixed(0).padStart(6)} req/s p50 ${direct.p50.toFixed(2)} ms | proxy ${proxied.perSecond.toFixed(0).padStart(6)} req/s p50 ${proxied.p50.toFixed(2)} ms | throughput ${(proxied.perSecond / direct.perSecond).toFixed(2)}x (target >= 0.5x), p50 added ${(proxied.p50 - direct.p50).toFixed(2)} ms (target <= 1 ms)`,
    );
  }
  console.log(`non-2xx answers: ${[...results].map(([name, list]) => `${name} ${list.reduce((sum, result) => sum + result.failed, 0)}`).join(', ')}`);
} finally {
  await Promise.all([proxy.stop(), sandbox.stop()]);
}

if (recorded > 0) await recordingMemory();

/** A proxy recording to disk over `recorded` exchanges: its memory after a full collection, sampled as it goes. */
async function recordingMemory() {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-proxy-bench-'));
  const file = join(dir, 'recording.har');
  const upstream = await start(['sandbox']);
  const recorder = await start(['proxy', upstream.url, '--record', file]).catch(async (error) => {
    await upstream.stop();
    throw error;
  });
  try {
    const url = `${recorder.url}/transactions`;
    const auth = ['-H', `Authorization: ${basic(upstream.secretKey)}`, '-H', 'Accept: application/json'];
    const samples = [];
    let next = Math.min(10_000, recorded);
    for (;;) {
      const sample = await memory(recorder);
      if (sample.exchanges >= next || sample.exchanges >= recorded) {
        samples.push(sample);
        if (sample.exchanges >= recorded) break;
        next = Math.min(next * 2, recorded);
      }
      await wrk(url, auth);
    }
    const first = samples[0];
    const last = samples.at(-1);
    console.log(`memory of a proxy recording GET /transactions to disk (after a full GC), exchanges: rss / heap used`);
    for (const sample of samples) {
      console.log(`  ${String(sample.exchanges).padStart(7)}: ${(sample.rss / 2 ** 20).toFixed(1)} MiB / ${(sample.heapUsed / 2 ** 20).toFixed(1)} MiB`);
    }
    const { size } = await stat(file);
    console.log(
      `heap used ${(last.heapUsed / first.heapUsed).toFixed(2)}x from ${first.exchanges} to ${last.exchanges} exchanges (flat is ~1x); recording ${(size / 2 ** 20).toFixed(0)} MiB on disk`,
    );
  } finally {
    await Promise.all([recorder.stop(), upstream.stop()]);
    await rm(dir, { recursive: true, force: true });
  }
}
