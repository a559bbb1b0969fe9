// `pnpm bench`: the cost of the validating proxy, in one run. The payments sandbox and the proxy in front of it run
// as a merchant runs them (`paykit-mock payments-sandbox`, `paykit-mock proxy --upstream ...`, separate processes);
// this process is the load generator (undici Pool, keep-alive, loopback only). The same GET and the same POST go
// direct to the sandbox and through the proxy, the arms interleaved round after round; printed side by side: the
// median requests per second of each and their ratio.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const connections = Number(process.env.PAYKIT_BENCH_PROXY_CONNECTIONS ?? 10);
const seconds = Number(process.env.PAYKIT_BENCH_SECONDS ?? 3);
const rounds = Number(process.env.PAYKIT_BENCH_ROUNDS ?? 3);
const secretKey = 'sk_bench_proxy_secret';
const publishableKey = 'pk_bench_proxy_publishable';
const headersFor = (key) => ({ accept: 'application/json', 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });

/** Runs `paykit-mock ARGS` and resolves with the first address printed after `marker`, and a stop function. */
function launch(args, marker) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const address = new RegExp(`${marker}(\\S+)`).exec(output)?.[1];
      if (address) resolve({ address, stop: () => (child.kill('SIGINT'), exited) });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`paykit-mock ${args[0]} exited (${code}):\n${output}`)));
  });
}

async function post(base, path, key, body) {
  const response = await fetch(base + path, { method: 'POST', headers: { ...headersFor(key), 'idempotency-key': `bench-${path}` }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Successful answers per second with one request in flight on each connection for the arm's duration. */
async function load(pool, makeRequest) {
  let ok = 0;
  let failed = 0;
  const startedAt = performance.now();
  const deadline = startedAt + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const response = await pool.request(makeRequest());
        await response.body.dump();
        response.statusCode < 300 ? ok++ : failed++;
      }
    }),
  );
  return { perSecond: ok / ((performance.now() - startedAt) / 1000), failed };
}

const sandbox = await launch(['payments-sandbox', '--port-payments-sandbox', '0', '--secret-key', secretKey, '--publishable-key', publishableKey], 'payments-sandbox mock: ');
const proxy = await launch(['proxy', '--upstream', sandbox.address], 'contract proxy: ').catch(async (error) => {
  await sandbox.stop();
  throw error;
});
try {
  const token = await post(sandbox.address, '/single-use-tokens', publishableKey, {
    supplierBusinessCode: 'TEST_BUSINESS',
    accountType: 'CREDIT_CARD',
    cardNumber: '4111111111111111',
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
  });
  const { customerId } = await post(sandbox.address, '/customers', secretKey, { customerNumber: 'BENCH-PROXY', customerName: 'Bench' });
  await post(sandbox.address, `/customers/${customerId}/accounts`, secretKey, { singleUseTokenId: token.singleUseTokenId });
  const payment = { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
  const { receiptNumber } = await post(sandbox.address, '/transactions', secretKey, payment);

  let key = 0;
  const arms = [];
  for (const [route, base] of [['direct', sandbox.address], ['proxy', proxy.address]]) {
    const url = new URL(base);
    const pool = new Pool(url.origin, { connections, pipelining: 1 });
    arms.push({ name: `GET ${route}`, pool, request: () => ({ method: 'GET', path: `${url.pathname}/transactions/${receiptNumber}`, headers: headersFor(secretKey) }) });
    // Every payment its own Idempotency-Key, as a merchant sends them (a repeated key would be a replay).
    arms.push({
      name: `POST ${route}`,
      pool,
      request: () => ({ method: 'POST', path: `${url.pathname}/transactions`, headers: { ...headersFor(secretKey), 'idempotency-key': `bench-${key++}` }, body: JSON.stringify(payment) }),
    });
  }
  const results = new Map(arms.map((arm) => [arm.name, { rates: [], failed: 0 }]));
  for (const arm of arms) await load(arm.pool, arm.request); // warm-up, the Prism child's JIT included
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < arms.length; k++) {
      const arm = arms[(round + k) % arms.length];
      const { perSecond, failed } = await load(arm.pool, arm.request);
      results.get(arm.name).rates.push(perSecond);
      results.get(arm.name).failed += failed;
    }
  }
  await Promise.all(arms.map((arm) => arm.pool.close().catch(() => {})));
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`contract proxy overhead on this machine, one run: ${connections} keep-alive connections, ${seconds} s per arm, median of ${rounds} interleaved rounds`);
  for (const method of ['GET ', 'POST']) {
    const direct = median(results.get(`${method.trim()} direct`).rates);
    const proxied = median(results.get(`${method.trim()} proxy`).rates);
    const path = method === 'GET ' ? '/transactions/{receiptNumber}' : '/transactions';
    console.log(`${method} ${path.padEnd(32)} direct ${direct.toFixed(0).padStart(6)} req/s   through the proxy ${proxied.toFixed(0).padStart(6)} req/s   ratio ${(direct / proxied).toFixed(1)}x slower`);
  }
  console.log(`non-2xx answers during the runs: ${[...results].map(([name, r]) => `${name} ${r.failed}`).join(', ')}`);
} finally {
  await Promise.all([proxy.stop(), sandbox.stop()]);
}
