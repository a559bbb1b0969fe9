// `pnpm --filter @paykit/contract-proxy bench`: what the validating proxy costs in front of the payments sandbox,
// measured side by side in one run. The sandbox and the proxy run as their own processes (as a merchant runs them);
// wrk is the load (keep-alive, loopback only). The same GET and the same POST go direct to the sandbox, through the
// proxy, and through a bare forwarder (the proxy's HTTP parts without any check: what forwarding alone costs), the
// arms interleaved round after round; printed: the median requests per second and p50 latency of each, the ratios,
// and the CPU time each process spent per request (from /proc, so it does not depend on the load beside the run).
// Then the memory of a proxy recording to disk over PAYKIT_BENCH_RECORDED exchanges.
//
// Environment: PAYKIT_BENCH_CONNECTIONS (10), PAYKIT_BENCH_SECONDS per arm (5), PAYKIT_BENCH_ROUNDS (5),
// PAYKIT_BENCH_RECORDED (100000; 0 skips the memory part).
import { execFile, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

const clockTicks = Number((await promisify(execFile)('getconf', ['CLK_TCK']).catch(() => ({ stdout: '100' }))).stdout.trim());

/** The CPU time a process has used so far, in ms (user + system, from /proc); NaN where /proc is not there. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
}

/**
 * One wrk run: requests per second, p50 latency in ms, the non-2xx count, and the CPU microseconds per request of
 * each process in `watched` (name -> pid).
 */
async function wrk(url, extra, env = {}, watched = {}) {
  const before = Object.fromEntries(Object.entries(watched).map(([name, pid]) => [name, cpuMs(pid)]));
  const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...extra, url], { env: { ...process.env, ...env } });
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const cpu = Object.fromEntries(Object.entries(watched).map(([name, pid]) => [name, ((cpuMs(pid) - before[name]) * 1000) / requests]));
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const [, value, unit] = /\s50%\s+([\d.]+)(us|ms|s)\b/.exec(stdout) ?? [];
  const p50 = Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? NaN);
  const failed = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { perSecond, p50, failed, cpu };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

const sandbox = await start(['sandbox']);
const started = [sandbox];
let proxy;
let forward;
try {
  proxy = await start(['proxy', sandbox.url]);
  started.push(proxy);
  forward = await start(['forward', sandbox.url]);
  started.push(forward);
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
  const routes = [
    ['direct', sandbox.url, { sandbox: sandbox.child.pid }],
    ['proxy', proxy.url, { sandbox: sandbox.child.pid, middle: proxy.child.pid }],
    ['forward', forward.url, { sandbox: sandbox.child.pid, middle: forward.child.pid }],
  ];
  for (const [route, base, watched] of routes) {
    const path = new URL(base).pathname;
    arms.push({ name: `GET ${route}`, run: () => wrk(`${base}/transactions/${receiptNumber}`, ['-H', `Authorization: ${auth}`, '-H', 'Accept: application/json'], {}, watched) });
    arms.push({
      name: `POST ${route}`,
      run: () =>
        wrk(new URL(base).origin, ['-s', postScript], { PAYKIT_BENCH_PATH: `${path}/transactions`, PAYKIT_BENCH_AUTH: auth, PAYKIT_BENCH_BODY: JSON.stringify(payment) }, watched),
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
    const cpuOf = (route, process) => median(results.get(`${method} ${route}`).map((result) => result.cpu[process]));
    const [direct, proxied, forwarded] = ['direct', 'proxy', 'forward'].map((route) => ({ perSecond: of(route, 'perSecond'), p50: of(route, 'p50') }));
    const path = method === 'GET' ? 'GET  /transactions/{receiptNumber}' : 'POST /transactions';
    const line = (name, result) => `${name} ${result.perSecond.toFixed(0).padStart(6)} req/s p50 ${result.p50.toFixed(2)} ms`;
    console.log(`${path}: ${line('direct', direct)} | ${line('proxy', proxied)} | ${line('bare forwarder', forwarded)}`);
    console.log(
      `  proxy: throughput ${(proxied.perSecond / direct.perSecond).toFixed(2)}x direct (target >= 0.5x), p50 added ${(proxied.p50 - direct.p50).toFixed(2)} ms (target <= 1 ms); bare forwarder: ${(forwarded.perSecond / direct.perSecond).toFixed(2)}x, p50 added ${(forwarded.p50 - direct.p50).toFixed(2)} ms`,
    );
    const us = (value) => `${value.toFixed(0)} us`;
    console.log(
      `  CPU per request: sandbox ${us(cpuOf('direct', 'sandbox'))} direct; proxy ${us(cpuOf('proxy', 'middle'))} (its checks: ${us(cpuOf('proxy', 'middle') - cpuOf('forward', 'middle'))} over the bare forwarder's ${us(cpuOf('forward', 'middle'))})`,
    );
  }
  console.log(`non-2xx answers: ${[...results].map(([name, list]) => `${name} ${list.reduce((sum, result) => sum + result.failed, 0)}`).join(', ')}`);
} finally {
  await Promise.all(started.map((server) => server.stop()));
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
