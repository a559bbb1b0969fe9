// `pnpm bench`: the payments sandbox beside Prism on the same machine, in one run. Both are started the way a
// merchant starts them (`paykit-mock payments` and `paykit-mock payments-sandbox`, separate processes); this process
// is the load generator (undici Pool, 20 keep-alive connections, loopback only). Printed side by side:
// - time from start to the first answer, each server started several times in turn;
// - requests per second for the same GET and the same POST, the arms interleaved round after round so that a busy
//   moment of the machine does not fall on one server only; the median of the rounds, and the ratio.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const connections = 20;
const secondsPerArm = Number(process.env.PAYKIT_BENCH_SECONDS ?? 3);
const rounds = Number(process.env.PAYKIT_BENCH_ROUNDS ?? 3);
const starts = Number(process.env.PAYKIT_BENCH_STARTS ?? 3);
const keys = { secret: 'sk_bench_secret', publishable: 'pk_bench_publishable' };
const authorization = (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const json = { accept: 'application/json', 'content-type': 'application/json' };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Starts one mock through the CLI on a free port; resolves once it has printed its address. */
function start(service) {
  const args = [cli, service, `--port-${service}`, '0', ...(service === 'payments-sandbox' ? ['--secret-key', keys.secret, '--publishable-key', keys.publishable] : [])];
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk.toString();
      const url = new RegExp(`${service} mock: (\\S+)`).exec(output)?.[1];
      if (url) resolve({ url, startedAt, stop: () => (child.kill('SIGTERM'), exited) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${service} exited (${code}) before listening:\n${output}`)));
  });
}

/** Milliseconds from the spawn of the process to its first 200 answer (polled every 5 ms from the spawn on). */
async function timeToFirstAnswer(service) {
  const startedAt = performance.now();
  const starting = start(service);
  const server = await starting;
  const url = `${server.url}/`;
  for (;;) {
    const answered = await fetch(url, { headers: { authorization: authorization(keys.secret), accept: 'application/json' } }).then(
      (r) => r.status,
      () => 0,
    );
    if (answered === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - startedAt;
  await server.stop();
  return elapsed;
}

/** Requests per second of one request kept in flight on every connection for `seconds`; non-2xx answers counted apart. */
async function load(pool, request, seconds) {
  let ok = 0;
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const response = await pool.request(request);
        await response.body.dump();
        if (response.statusCode >= 200 && response.statusCode < 300) ok += 1;
        else failed += 1;
      }
    }),
  );
  return { perSecond: ok / ((performance.now() - startedAt) / 1000), failed };
}

async function call(base, method, path, key, body) {
  const response = await fetch(base + path, { method, headers: { ...json, authorization: authorization(key) }, body: body && JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// Time to first answer, the two servers in turn.
const firstAnswer = { prism: [], sandbox: [] };
for (let i = 0; i < starts; i++) {
  firstAnswer.prism.push(await timeToFirstAnswer('payments'));
  firstAnswer.sandbox.push(await timeToFirstAnswer('payments-sandbox'));
}

const prism = await start('payments');
const sandbox = await start('payments-sandbox');
try {
  // The same two requests for both: a transaction read back, and a payment from a customer's stored account (the
  // sandbox needs the customer, its account and one transaction first; Prism answers from the contract's examples).
  const token = await call(sandbox.url, 'POST', '/single-use-tokens', keys.publishable, {
    supplierBusinessCode: 'TEST_BUSINESS',
    accountType: 'CREDIT_CARD',
    cardNumber: '4111111111111111',
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
  });
  const { customerId } = await call(sandbox.url, 'POST', '/customers', keys.secret, { customerNumber: 'BENCH-1', customerName: 'Bench' });
  await call(sandbox.url, 'POST', `/customers/${customerId}/accounts`, keys.secret, { singleUseTokenId: token.singleUseTokenId });
  const payment = { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
  const { receiptNumber } = await call(sandbox.url, 'POST', '/transactions', keys.secret, payment);

  const arms = {};
  for (const [name, server] of [['prism', prism], ['sandbox', sandbox]]) {
    const { origin, pathname: basePath } = new URL(server.url);
    const pool = new Pool(origin, { connections, pipelining: 1 });
    const headers = { ...json, authorization: authorization(keys.secret) };
    arms[`GET ${name}`] = { pool, request: { method: 'GET', path: `${basePath}/transactions/${receiptNumber}`, headers } };
    arms[`POST ${name}`] = { pool, request: { method: 'POST', path: `${basePath}/transactions`, headers, body: JSON.stringify(payment) } };
  }
  const results = Object.fromEntries(Object.keys(arms).map((name) => [name, { perSecond: [], failed: 0 }]));
  const names = Object.keys(arms);
  for (const arm of names) await load(arms[arm].pool, arms[arm].request, 0.5); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const { perSecond, failed } = await load(arms[name].pool, arms[name].request, secondsPerArm);
      results[name].perSecond.push(perSecond);
      results[name].failed += failed;
    }
  }
  await Promise.all(Object.values(arms).map((arm) => arm.pool.close().catch(() => {})));

  const rate = (name) => median(results[name].perSecond);
  const line = (label, prismRate, sandboxRate, target) =>
    `${label.padEnd(44)} Prism ${prismRate.toFixed(0).padStart(6)} req/s   sandbox ${sandboxRate.toFixed(0).padStart(6)} req/s   ratio ${(sandboxRate / prismRate).toFixed(1)}x (target >= ${target}x)`;
  console.log(`payments sandbox vs Prism on this machine, one run: ${connections} keep-alive connections, ${secondsPerArm} s per arm, median of ${rounds} interleaved rounds`);
  console.log(line(`GET  ${new URL(sandbox.url).pathname}/transactions/{receiptNumber}`, rate('GET prism'), rate('GET sandbox'), 10));
  console.log(line(`POST ${new URL(sandbox.url).pathname}/transactions`, rate('POST prism'), rate('POST sandbox'), 10));
  const prismStart = median(firstAnswer.prism) / 1000;
  const sandboxStart = median(firstAnswer.sandbox) / 1000;
  console.log(
    `first answer after start (median of ${starts})`.padEnd(44) +
      ` Prism ${prismStart.toFixed(2).padStart(6)} s       sandbox ${sandboxStart.toFixed(2).padStart(6)} s       ratio ${(prismStart / sandboxStart).toFixed(1)}x faster (target < 1 s)`,
  );
  console.log(`non-2xx answers during the runs: Prism GET ${results['GET prism'].failed}, POST ${results['POST prism'].failed}; sandbox GET ${results['GET sandbox'].failed}, POST ${results['POST sandbox'].failed}`);
} finally {
  await Promise.all([prism.stop(), sandbox.stop()]);
}
