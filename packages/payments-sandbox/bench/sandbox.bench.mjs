// `pnpm bench`: the payments sandbox beside Prism (the payments mock, served from the same bundled contract) and
// beside a bare `node:http` server answering the same JSON (the floor: what Node itself costs), in one run. Every
// server is a process of its own; this process is the load generator (undici Pool, keep-alive connections, loopback
// only). The arms are interleaved round after round, so that a busy moment of the machine does not fall on one
// server only; each rate is the median of the rounds, each ratio the median of the rounds' own ratios. Printed: requests per second and ratios for the same GET and
// the same POST, the POST with the state file (every answer waits for its fsync), and the time to the first answer.
// On a shared machine the rates swing with the other work on it: beside them, the CPU time each server process spent
// per answer (from /proc, Linux) gives ratios that hold on a busy machine too; 1 / (CPU per answer) is the rate
// one core would give. A POST counts only when it created a payment (201 or 202 with a receipt number): 429s and
// other refusals are counted apart.
// With PostgreSQL installed (Debian's, as the tests use), the run adds two sandbox processes sharing one database
// (`--state postgres://...`, a throwaway cluster on a free port) paid side by side with the floor at the same number
// of connections and with two in-memory sandboxes that share nothing (what two processes cost on the machine), and
// times how long both take to answer a payment after clients gave up in the middle of theirs.
// The dashboard (issue 36): the same GET and POST on the same sandbox with an event-stream client connected and
// reading (`GET /__sandbox/events`, as the dashboard keeps it open; read by a process of its own, as a browser is), in the same
// rounds as without it; and a search of
// the control interface's `listTransactions` at 50,000 transactions, in this process. PAYKIT_BENCH_ONLY=dashboard runs
// only these (and the floor), for a quick run.
// `PAYKIT_BENCH_ONLY=postgres`: only that pair and its floor (no start times, no Prism, no in-memory or file arms),
// for work on the PostgreSQL store; a run without PostgreSQL installed then fails rather than print nothing.
// `PAYKIT_BENCH_BASELINE=DIR`: the `dist` folder of an earlier build of this package (a worktree of the commit before
// a change, built): a second pair of that build, on a database of its own in the same cluster, paid in the same rounds,
// and the ratio of this build to it, round by round (before and after in one run, on a machine whose load swings).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { connect } from 'node:net';
import { Pool } from 'undici';
import { findPostgres, startPostgres } from '../test/support/postgres-cluster.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const sandboxProcess = here('../test/support/sandbox-process.mjs');
const floorProcess = here('./floor-server.mjs');
const streamReaderProcess = here('./event-stream-reader.mjs');
const contract = here('../dist/specs/payments.json');
const prismCli = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

// The reference's concurrency limit (10 requests in flight, `x-paykit-rules.concurrency`): more connections would only
// measure the sandbox's 429 answers.
const connections = Number(process.env.PAYKIT_BENCH_CONNECTIONS ?? 10);
const secondsPerArm = Number(process.env.PAYKIT_BENCH_SECONDS ?? 1.5);
const rounds = Number(process.env.PAYKIT_BENCH_ROUNDS ?? 7);
const starts = Number(process.env.PAYKIT_BENCH_STARTS ?? 5);
const only = process.env.PAYKIT_BENCH_ONLY ?? '';
if (!['', 'postgres', 'dashboard'].includes(only)) throw new Error(`PAYKIT_BENCH_ONLY=${only}: the subsets there are "postgres" and "dashboard"`);
const postgresOnly = only === 'postgres';
const onlyDashboard = only === 'dashboard';
const keys = { secret: 'sk_bench_secret', publishable: 'pk_bench_publishable' };
const authorization = (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const json = { accept: 'application/json', 'content-type': 'application/json' };
const scratch = mkdtempSync(join(tmpdir(), 'paykit-sandbox-bench-'));
const controlToken = 'ctl_bench_dashboard_stream_token';
const searchRecords = Number(process.env.PAYKIT_BENCH_SEARCH_TRANSACTIONS ?? 50_000);
const searchesPerQuery = Number(process.env.PAYKIT_BENCH_SEARCHES ?? 20);
const streamReader = process.env.PAYKIT_BENCH_STREAM_READER ?? 'process';
if (!['process', 'here'].includes(streamReader)) throw new Error(`PAYKIT_BENCH_STREAM_READER=${streamReader}: "process" (the default) or "here"`);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process has used so far, or NaN where /proc is not there. */
function cpuSeconds(pid) {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return Number.NaN;
  const fields = readFileSync(path, 'utf8').slice(readFileSync(path, 'utf8').lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted after the command name, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds a PostgreSQL server has used so far: its postmaster, its live processes (backends, writers) and those
 * that have ended (the postmaster's reaped children), or NaN without /proc.
 */
function serverCpuSeconds(postmaster) {
  const path = `/proc/${postmaster}/stat`;
  if (!existsSync(path)) return Number.NaN;
  const text = readFileSync(path, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime (fields 16 and 17): children that have ended and were waited for.
  const reaped = (Number(fields[13]) + Number(fields[14])) / 100;
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return cpuSeconds(postmaster) + reaped + children.reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0);
}

/** Spawns a server process; resolves with its base address once `ready` finds it in the output. */
function launch(args, ready, input) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false' } });
  child.stdin.end(input ?? '');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = () => (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM'), exited);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk.toString();
      const url = ready(output);
      if (url) resolve({ url, stop, pid: child.pid });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before listening:\n${output.slice(-2000)}`)));
  });
}

// `PAYKIT_BENCH_SANDBOX_NODE_OPTIONS`: options for the sandbox processes' node only (e.g. `--cpu-prof --cpu-prof-dir=DIR`).
const sandboxNodeOptions = (process.env.PAYKIT_BENCH_SANDBOX_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
const startSandbox = (stateFile = '', script = sandboxProcess) =>
  launch([...sandboxNodeOptions, script, stateFile, keys.secret, keys.publishable, controlToken], (output) => /payments-sandbox ready: (\S+)/.exec(output)?.[1]);

const baselineDist = process.env.PAYKIT_BENCH_BASELINE;
/** The sandbox process script, started on the baseline build's `dist/index.js` instead of this one's. */
function baselineProcess() {
  const index = resolve(baselineDist, 'index.js');
  if (!existsSync(index)) throw new Error(`PAYKIT_BENCH_BASELINE=${baselineDist}: no index.js there (build that worktree first)`);
  const script = join(scratch, 'baseline-process.mjs');
  writeFileSync(script, readFileSync(sandboxProcess, 'utf8').replace("'../../dist/index.js'", JSON.stringify(pathToFileURL(index).href)));
  return script;
}

/**
 * The dashboard's event stream on `server`, read as it comes (events counted) until `close()`: what a browser with
 * the dashboard open does while the arm runs. By default the reader is a process of its own, as the browser is
 * (`bench/event-stream-reader.mjs`): read in this process, it took the load generator's event loop in the streaming
 * arms only, which slowed the load and raised the server's CPU per answer there. `PAYKIT_BENCH_STREAM_READER=here`
 * reads it in this process instead, as the bench did before, to compare.
 */
async function openEventStream(server) {
  const { origin } = new URL(server.url);
  if (streamReader === 'here') {
    const controller = new AbortController();
    const stream = { events: 0, close: () => controller.abort() };
    stream.done = fetch(`${origin}/__sandbox/events`, { headers: { authorization: `Bearer ${controlToken}` }, signal: controller.signal })
      .then(async (response) => {
        if (response.status !== 200) throw new Error(`the event stream answered ${response.status}`);
        const decoder = new TextDecoder();
        for await (const chunk of response.body) stream.events += decoder.decode(chunk, { stream: true }).split('\ndata: ').length - 1;
      })
      .catch((error) => {
        if (error?.name !== 'AbortError') throw error;
      });
    return stream;
  }
  const child = spawn(process.execPath, [streamReaderProcess, origin, controlToken], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  // 'close', not 'exit': its last output has been read then.
  const exited = new Promise((resolve) => child.once('close', resolve));
  // The arm starts once the stream is open, as a dashboard already open is.
  await new Promise((resolve, reject) => {
    child.stdout.on('data', () => output.includes('open\n') && resolve());
    exited.then((code) => reject(new Error(`the event stream reader exited (${code}) before the stream opened`)));
  });
  const stream = { events: 0, close: () => child.stdin.end() };
  stream.done = exited.then((code) => {
    if (code !== 0) throw new Error(`the event stream reader exited with ${code}`);
    stream.events = Number(/events (\d+)/.exec(output)?.[1] ?? Number.NaN);
  });
  return stream;
}

async function startPrism() {
  const port = await freePort();
  const { 'x-paykit-mock-base-path': basePath = '' } = JSON.parse(await (await import('node:fs/promises')).readFile(contract, 'utf8'));
  return launch([prismCli, 'mock', '-h', '127.0.0.1', '-p', String(port), contract], (output) =>
    output.includes('Prism is listening') ? `http://127.0.0.1:${port}${basePath}` : undefined,
  );
}

const startFloor = (body) => launch([floorProcess], (output) => /floor ready: (\S+)/.exec(output)?.[1], body);

/**
 * Milliseconds from the spawn of a server process to its first 200 answer to `path` (polled every 2 ms once it
 * listens), and the CPU seconds the process had used by then (Node's own start included).
 */
async function timeToFirstAnswer(start, path) {
  const startedAt = performance.now();
  const server = await start();
  for (;;) {
    const status = await fetch(`${server.url}${path}`, { headers: { authorization: authorization(keys.secret), accept: 'application/json' } }).then(
      (r) => (r.body?.cancel(), r.status),
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const elapsed = performance.now() - startedAt;
  const cpu = cpuSeconds(server.pid);
  await server.stop();
  return { elapsed, cpu };
}

/** A GET counts when answered 200; a POST only when it created a payment (201 or 202, a receipt number in it). */
async function counted(method, response) {
  if (method !== 'POST') {
    await response.body.dump();
    return response.statusCode === 200;
  }
  const text = await response.body.text();
  return (response.statusCode === 201 || response.statusCode === 202) && text.includes('"receiptNumber"');
}

/**
 * Requests per second with one request in flight on every connection for `seconds` (`connections` per target of the
 * arm), and the CPU seconds the server processes spent per counted answer; the others counted apart.
 */
async function load(arm, seconds, maxRequests = Number.POSITIVE_INFINITY) {
  let ok = 0;
  let failed = 0;
  const pids = arm.targets.map((target) => target.pid);
  const cpuOf = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpuBefore = cpuOf();
  const serverBefore = arm.server ? serverCpuSeconds(arm.server) : Number.NaN;
  const deadline = performance.now() + seconds * 1000;
  const startedAt = performance.now();
  await Promise.all(
    arm.targets.flatMap((target) =>
      Array.from({ length: target.connections ?? connections }, async () => {
        while (performance.now() < deadline && ok + failed < maxRequests) {
          const response = await target.pool.request(target.request);
          if (await counted(target.request.method, response)) ok += 1;
          else failed += 1;
        }
      }),
    ),
  );
  const elapsed = (performance.now() - startedAt) / 1000;
  const serverCpuPerAnswer = arm.server ? (serverCpuSeconds(arm.server) - serverBefore) / ok : Number.NaN;
  return { perSecond: ok / elapsed, cpuPerAnswer: (cpuOf() - cpuBefore) / ok, serverCpuPerAnswer, failed };
}

async function call(base, method, path, key, body) {
  const response = await fetch(base + path, { method, headers: { ...json, authorization: authorization(key) }, body: body && JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A customer with a stored card and one payment on a sandbox: what the POST and GET arms use. */
async function seed(base) {
  const token = await call(base, 'POST', '/single-use-tokens', keys.publishable, {
    supplierBusinessCode: 'TEST_BUSINESS',
    accountType: 'CREDIT_CARD',
    cardNumber: '4111111111111111',
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
  });
  const { customerId } = await call(base, 'POST', '/customers', keys.secret, { customerNumber: 'BENCH-1', customerName: 'Bench' });
  await call(base, 'POST', `/customers/${customerId}/accounts`, keys.secret, { singleUseTokenId: token.singleUseTokenId });
  const payment = { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
  const transaction = await call(base, 'POST', '/transactions', keys.secret, payment);
  return { payment, transaction };
}

// Time to the first answer, the sandbox (GET / with the key) and the bare server in turn.
const firstAnswers = { sandbox: [], floor: [] };
for (let i = 0; i < (onlyDashboard || postgresOnly ? 0 : starts); i++) {
  firstAnswers.sandbox.push(await timeToFirstAnswer(() => startSandbox(), '/'));
  firstAnswers.floor.push(await timeToFirstAnswer(() => startFloor('{}'), '/'));
}

/**
 * What the pair's database holds after the run, for "what limits PostgreSQL mode": how many payments each batch
 * carried (a batch that changed something takes one change number), the rows and bytes written per payment, and the
 * server's transactions per payment (a batch is two: its own and the flush).
 */
async function batchFigures(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: collections } = await client.query("SELECT collection, count(*)::int AS rows, coalesce(sum(length(value)), 0)::bigint AS bytes FROM paykit_sandbox_records WHERE value IS NOT NULL GROUP BY collection ORDER BY collection");
    const batches = Number((await client.query("SELECT value FROM paykit_sandbox_meta WHERE name = 'changes'")).rows[0].value);
    const commits = Number((await client.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
    const payments = collections.find((c) => c.collection === 'transactions')?.rows ?? 0;
    const perPayment = (n) => (n / payments).toFixed(2);
    return `${payments} transactions in ${batches} batches that wrote, ${(payments / batches).toFixed(1)} per batch; ${collections.map((c) => `${c.collection} ${c.rows} rows, ${(Number(c.bytes) / c.rows).toFixed(0)} B each`).join('; ')}; server transactions per payment ${perPayment(commits)}`;
  } finally {
    await client.end();
  }
}

/** A throwaway PostgreSQL cluster and two sandbox processes on one database of it, or undefined without PostgreSQL. */
async function startSharedPair() {
  const bin = findPostgres();
  if (!bin) return undefined;
  const cluster = await startPostgres(bin);
  const url = `postgres://${cluster.user}:${encodeURIComponent(cluster.password)}@127.0.0.1:${cluster.port}/postgres`;
  try {
    const pair = [await startSandbox(url), await startSandbox(url)];
    let baseline;
    if (baselineDist) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('CREATE DATABASE baseline').finally(() => client.end());
      const script = baselineProcess();
      const baselineUrl = url.replace(/\/postgres$/, '/baseline');
      baseline = [await startSandbox(baselineUrl, script), await startSandbox(baselineUrl, script)];
      pair.push(...baseline);
    }
    return {
      pair: pair.slice(0, 2),
      baseline,
      url,
      /** The server's main process (the first line of its postmaster.pid). */
      postmaster: Number(readFileSync(join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0]),
      stop: async () => {
        await Promise.all(pair.map((s) => s.stop()));
        await cluster.destroy();
      },
    };
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
}

/**
 * Clients that give up in the middle of a payment on process A of a shared pair, at the points where one waits: with
 * half of its body sent, and right after sending all of it (while other writes keep both busy). Then the time until
 * each process answers a payment, measured from the last client's giving up: the sandbox's answer to issue 33's
 * "both processes answer the next write within 1 s".
 */
async function abandonedWrites(pair, payment) {
  const [a] = pair;
  const body = JSON.stringify(payment);
  const head = (url) => {
    const { pathname } = new URL(url);
    return `POST ${pathname}/transactions HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/json\r\n` +
      `Authorization: ${authorization(keys.secret)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  };
  const giveUp = (sent) =>
    new Promise((resolve) => {
      const { hostname, port } = new URL(a.url);
      const socket = connect(Number(port), hostname, () => socket.write(head(a.url) + body.slice(0, sent), () => (socket.destroy(), resolve())));
      socket.on('error', resolve);
    });
  // Below the reference's limit of 10 requests in flight on A, so that no one is refused with 429.
  const busy = Promise.all(pair.map((s) => Promise.all(Array.from({ length: 2 }, () => call(s.url, 'POST', '/transactions', keys.secret, payment)))));
  await Promise.all([...Array.from({ length: 3 }, () => giveUp(Math.floor(body.length / 2))), ...Array.from({ length: 3 }, () => giveUp(body.length))]);
  const gaveUp = performance.now();
  const answered = await Promise.all(pair.map(async (s) => (await call(s.url, 'POST', '/transactions', keys.secret, payment), performance.now() - gaveUp)));
  await busy;
  return answered;
}

/**
 * The control interface's `listTransactions` at `searchRecords` transactions (an in-process sandbox of this build,
 * filled as the store bench fills it): milliseconds per answer, median of `searchesPerQuery`, per kind of search.
 */
async function dashboardSearches() {
  const { startPaymentsSandbox } = await import('../dist/index.js');
  const { storeOf } = await import('../dist/sandbox.js');
  const sandbox = await startPaymentsSandbox({ keys: { secret: [keys.secret], publishable: [keys.publishable] }, controlToken });
  try {
    const { state } = storeOf(sandbox);
    const day = 86_400_000;
    const newest = Date.parse('2026-01-15T00:00:00Z');
    const statuses = ['Approved', 'Approved', 'Approved', 'Declined', 'Pending', 'Voided'];
    for (let n = 1; n <= searchRecords; n++) {
      const receiptNumber = String(1_000_000_000 + n);
      state.transactions.set(receiptNumber, {
        receiptNumber,
        createdAt: newest - day * (n % 30) + n,
        transactionType: n % 10 === 0 ? 'REFUND' : 'PAYMENT',
        status: statuses[n % statuses.length],
        principal: 1000 + (n % 500),
        surcharge: 0,
        currency: 'AUD',
        supplierBusinessCode: 'TEST_BUSINESS',
        refunded: 0,
        accountType: 'CREDIT_CARD',
        ...(n % 7 === 0 ? { customerId: `CUST-${n % 100}` } : {}),
        ipAddress: null,
        comment: n % 13 === 0 ? `order note ${n}` : null,
        metadata: { orderId: `seed-${n}` },
        request: { principalAmount: (1000 + (n % 500)) / 100, metadata: { orderId: `seed-${n}` } },
      });
    }
    state.sequence = searchRecords;
    const searches = {
      'first page, no filter': '',
      'text matching one (q=seed-25000)': `q=seed-${Math.floor(searchRecords / 2)}`,
      'text matching none (q=nothing)': 'q=nothing-matches-this',
      'status Declined': 'status=Declined',
      'amount 12.00-12.05, REFUND': 'amountMin=12&amountMax=12.05&transactionType=REFUND',
      'customer CUST-7': 'customerId=CUST-7',
      'a week of dates': 'createdFrom=2026-01-01T00:00:00Z&createdTo=2026-01-08T00:00:00Z',
    };
    const headers = { authorization: `Bearer ${controlToken}` };
    const results = {};
    let cold;
    for (const [label, query] of Object.entries(searches)) {
      const times = [];
      for (let i = 0; i < searchesPerQuery; i++) {
        const begun = performance.now();
        const response = await fetch(`${sandbox.controlUrl}/transactions?${query}`, { headers });
        const page = await response.json();
        if (response.status !== 200 || !Array.isArray(page.items)) throw new Error(`${label}: ${response.status}`);
        times.push(performance.now() - begun);
      }
      results[label] = median(times);
      // The first text search reads every transaction's text once (kept per record after): printed apart.
      if (cold === undefined && query.startsWith('q=')) cold = times[0];
    }
    // A page deep in the list: its cursor 40,000 transactions in.
    const deep = [];
    const all = [...state.transactions.values()].sort((a, b) => b.createdAt - a.createdAt);
    const cursor = all[Math.min(all.length - 1, Math.floor(searchRecords * 0.8))].receiptNumber;
    for (let i = 0; i < searchesPerQuery; i++) {
      const begun = performance.now();
      const response = await fetch(`${sandbox.controlUrl}/transactions?cursor=${cursor}`, { headers });
      await response.arrayBuffer();
      deep.push(performance.now() - begun);
    }
    results['a page 80% down (cursor)'] = median(deep);
    return { results, cold };
  } finally {
    await sandbox.close();
  }
}

const sandbox = await startSandbox();
const durable = onlyDashboard || postgresOnly ? undefined : await startSandbox(join(scratch, 'state.db'));
const prism = onlyDashboard || postgresOnly ? undefined : await startPrism();
const shared = onlyDashboard ? undefined : await startSharedPair();
if (postgresOnly && !shared) throw new Error('PAYKIT_BENCH_ONLY=postgres: no PostgreSQL found under /usr/lib/postgresql');
// Beside the PostgreSQL pair, two in-memory sandboxes that share nothing, paid the same way: what two sandbox processes
// and the load generator give on this machine without a store, so that the pair's row separates the store's cost from
// the cost of running two processes on the machine's cores.
const memoryPair = shared ? [await startSandbox(), await startSandbox()] : [];
const servers = [sandbox, ...memoryPair, ...(durable ? [durable] : []), ...(prism ? [prism] : []), ...(shared ? [{ stop: shared.stop }] : [])];
try {
  const { payment, transaction } = await seed(sandbox.url);
  const durableSeed = durable ? await seed(durable.url) : undefined;
  const sharedSeed = shared ? await seed(shared.pair[0].url) : undefined;
  const baselineSeed = shared?.baseline ? await seed(shared.baseline[0].url) : undefined;
  const memorySeeds = await Promise.all(memoryPair.map((s) => seed(s.url)));
  const floor = await startFloor(JSON.stringify(transaction));
  servers.push(floor);

  const headers = { ...json, authorization: authorization(keys.secret) };
  const target = (server, method, path, body, perTarget = connections) => {
    const { origin, pathname } = new URL(server.url);
    const request = { method, path: `${pathname}${path}`, headers, ...(body ? { body: JSON.stringify(body) } : {}) };
    return { pool: new Pool(origin, { connections: perTarget, pipelining: 1 }), pid: server.pid, request, connections: perTarget };
  };
  const arm = (...targets) => ({ targets });
  /** The same arm with the dashboard's event stream open on the sandbox and read while it runs. */
  const streaming = (...targets) => ({ targets, stream: sandbox });
  const arms = postgresOnly ? {} : {
    'GET sandbox': arm(target(sandbox, 'GET', `/transactions/${transaction.receiptNumber}`)),
    'GET sandbox, dashboard streaming': streaming(target(sandbox, 'GET', `/transactions/${transaction.receiptNumber}`)),
    ...(prism ? { 'GET prism': arm(target(prism, 'GET', `/transactions/${transaction.receiptNumber}`)) } : {}),
    'GET floor': arm(target(floor, 'GET', `/transactions/${transaction.receiptNumber}`)),
    'POST sandbox': arm(target(sandbox, 'POST', '/transactions', payment)),
    'POST sandbox, dashboard streaming': streaming(target(sandbox, 'POST', '/transactions', payment)),
    ...(durable ? { 'POST sandbox, state file': arm(target(durable, 'POST', '/transactions', durableSeed.payment)) } : {}),
    ...(prism ? { 'POST prism': arm(target(prism, 'POST', '/transactions', payment)) } : {}),
    'POST floor': arm(target(floor, 'POST', '/transactions', payment)),
  };
  Object.assign(arms, {
    ...(shared
      ? {
          // Each process admits the reference's 10 requests in flight: 10 connections to each, and the floor with as many.
          'POST sandbox, PostgreSQL x2': { ...arm(...shared.pair.map((s) => target(s, 'POST', '/transactions', sharedSeed.payment))), server: shared.postmaster },
          ...(shared.baseline
            ? { 'POST baseline, PostgreSQL x2': { ...arm(...shared.baseline.map((s) => target(s, 'POST', '/transactions', baselineSeed.payment))), server: shared.postmaster } }
            : {}),
          'POST sandbox x2, in memory': arm(...memoryPair.map((s, i) => target(s, 'POST', '/transactions', memorySeeds[i].payment))),
          'POST floor, 2x connections': arm(target(floor, 'POST', '/transactions', payment, 2 * connections)),
        }
      : {}),
  });
  const names = Object.keys(arms);
  const results = Object.fromEntries(names.map((name) => [name, { perSecond: [], cpuPerAnswer: [], serverCpuPerAnswer: [], failed: 0, events: 0 }]));
  /** An arm's load, with the dashboard's stream open and read throughout when the arm says so. */
  const loadArm = async (name, seconds, maxRequests) => {
    const stream = arms[name].stream ? await openEventStream(arms[name].stream) : undefined;
    let result;
    try {
      result = await load(arms[name], seconds, maxRequests);
    } finally {
      stream?.close();
      await stream?.done;
    }
    // Counted once the reader has stopped (a reader process tells its count as it ends).
    return { ...result, events: stream?.events ?? 0 };
  };
  // Warm-up until V8 has optimised each server's request path: a few thousand requests, or 3 s for a slow server.
  for (const name of names) await loadArm(name, 3, 5000);
  // Round after round, the arms of one request back to back in a rotating order: the ratios are taken within a round
  // (the machine's other work changes less between neighbouring arms than across the run), then their median.
  const groups = [names.filter((n) => n.startsWith('GET')), names.filter((n) => n.startsWith('POST'))];
  for (let round = 0; round < rounds; round++) {
    for (const group of groups) {
      for (let k = 0; k < group.length; k++) {
        const name = group[(round + k) % group.length];
        const { perSecond, cpuPerAnswer, serverCpuPerAnswer, failed, events } = await loadArm(name, secondsPerArm);
        results[name].perSecond.push(perSecond);
        results[name].cpuPerAnswer.push(cpuPerAnswer);
        results[name].serverCpuPerAnswer.push(serverCpuPerAnswer);
        results[name].failed += failed;
        results[name].events += events;
      }
    }
  }
  await Promise.all(Object.values(arms).flatMap((a) => a.targets.map((t) => t.pool.close().catch(() => {}))));
  const abandoned = shared ? await abandonedWrites(shared.pair, sharedSeed.payment) : undefined;

  const rate = (name) => median(results[name].perSecond);
  const cpu = (name) => median(results[name].cpuPerAnswer);
  const byRound = (a, b, of) => median(results[a][of].map((value, round) => value / results[b][of][round]));
  const row = (name, label) => `  ${label.padEnd(40)} ${rate(name).toFixed(0).padStart(8)} req/s   ${(cpu(name) * 1e6).toFixed(0).padStart(7)} us CPU per answer`;
  const compare = (a, b, label, target) =>
    `  ${label.padEnd(40)} ${byRound(a, b, 'perSecond').toFixed(3).padStart(8)}x by req/s ${(1 / byRound(a, b, 'cpuPerAnswer')).toFixed(2).padStart(7)}x by CPU per answer${target === undefined ? '' : `   (target >= ${target}x)`}`;
  console.log(`payments sandbox bench, one run: ${connections} keep-alive connections, ${secondsPerArm} s per arm, ${rounds} rounds; rates: median; ratios: median of the rounds' ratios; POSTs count created payments only`);
  if (!postgresOnly) {
    console.log('GET /transactions/{receiptNumber}');
    console.log(row('GET sandbox', 'sandbox'));
    console.log(row('GET sandbox, dashboard streaming', 'sandbox, dashboard streaming'));
    if (prism) console.log(row('GET prism', 'Prism'));
    console.log(row('GET floor', 'bare node:http (same JSON)'));
    if (prism) console.log(compare('GET sandbox', 'GET prism', 'sandbox / Prism', 10));
    console.log(compare('GET sandbox', 'GET floor', 'sandbox / bare node:http', 0.4));
    console.log(compare('GET sandbox, dashboard streaming', 'GET sandbox', 'dashboard streaming / without', 0.95));
  }
  console.log('POST /transactions');
  if (!postgresOnly) console.log(row('POST sandbox', 'sandbox (in memory)'));
  if (!postgresOnly) console.log(row('POST sandbox, dashboard streaming', 'sandbox, dashboard streaming'));
  if (durable) console.log(row('POST sandbox, state file', 'sandbox (state file, fsync)'));
  if (shared) console.log(row('POST sandbox, PostgreSQL x2', `sandbox x2, PostgreSQL (${2 * connections} connections)`));
  if (shared) console.log(row('POST sandbox x2, in memory', `sandbox x2, in memory (${2 * connections} connections)`));
  if (prism) console.log(row('POST prism', 'Prism'));
  if (!postgresOnly) console.log(row('POST floor', 'bare node:http (parse, same JSON)'));
  if (shared) console.log(row('POST floor, 2x connections', `bare node:http, ${2 * connections} connections`));
  if (!postgresOnly) console.log(compare('POST sandbox', 'POST floor', 'sandbox / bare node:http', 0.25));
  if (durable) console.log(compare('POST sandbox, state file', 'POST floor', 'sandbox with state file / bare', 0.15));
  if (shared) console.log(compare('POST sandbox, PostgreSQL x2', 'POST floor, 2x connections', 'sandbox x2 on PostgreSQL / bare', 0.15));
  if (shared) console.log(compare('POST sandbox x2, in memory', 'POST floor, 2x connections', 'sandbox x2 in memory / bare'));
  if (shared) console.log(compare('POST sandbox, PostgreSQL x2', 'POST sandbox x2, in memory', 'x2 on PostgreSQL / x2 in memory'));
  if (shared?.baseline) {
    console.log(row('POST baseline, PostgreSQL x2', `baseline build x2, PostgreSQL (${baselineDist})`));
    console.log(compare('POST baseline, PostgreSQL x2', 'POST floor, 2x connections', 'baseline x2 on PostgreSQL / bare', 0.15));
    console.log(`  this build / baseline, PostgreSQL x2       ${byRound('POST sandbox, PostgreSQL x2', 'POST baseline, PostgreSQL x2', 'perSecond').toFixed(3).padStart(8)}x by req/s ${(1 / byRound('POST sandbox, PostgreSQL x2', 'POST baseline, PostgreSQL x2', 'cpuPerAnswer')).toFixed(2).padStart(7)}x by CPU per answer; PostgreSQL server CPU per answer ${(median(results['POST baseline, PostgreSQL x2'].serverCpuPerAnswer) * 1e6).toFixed(0)} us (baseline)`);
  }
  if (prism) console.log(compare('POST sandbox', 'POST prism', 'sandbox / Prism', 1));
  if (!postgresOnly) {
    console.log(compare('POST sandbox, dashboard streaming', 'POST sandbox', 'dashboard streaming / without', 0.95));
    console.log(
      `events the dashboard's stream read: GET arms ${results['GET sandbox, dashboard streaming'].events}, POST arms ${results['POST sandbox, dashboard streaming'].events} (${streamReader === 'here' ? 'the reader runs in this process, beside the load' : 'the reader is a process of its own, as a browser is'}: its CPU is not the server's)`,
    );
  }
  if (shared) {
    const server = median(results['POST sandbox, PostgreSQL x2'].serverCpuPerAnswer) * 1e6;
    console.log(`  (the PostgreSQL row's CPU is the two sandbox processes' only; the PostgreSQL server's processes spent ${server.toFixed(0)} us more per answer)`);
    console.log(`  (PostgreSQL x2, the whole run: ${await batchFigures(shared.url)})`);
  }
  if (!postgresOnly) {
    const { results: searched, cold } = await dashboardSearches();
    const slowest = Math.max(...Object.values(searched));
    console.log(`dashboard: listTransactions at ${searchRecords} transactions (control interface, in this process; median of ${searchesPerQuery})`);
    for (const [label, ms] of Object.entries(searched)) console.log(`  ${label.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms`);
    console.log(`  slowest: ${slowest.toFixed(1)} ms (target <= 50 ms: ${slowest <= 50 ? 'met' : 'NOT met'}); the first text search after start: ${cold.toFixed(1)} ms`);
  }
  const started = (runs) => `${(median(runs.map((r) => r.elapsed)) / 1000).toFixed(3)} s (${median(runs.map((r) => r.cpu)).toFixed(2)} s CPU)`;
  if (!onlyDashboard && !postgresOnly) console.log(`first answer after spawn (median of ${starts}): sandbox ${started(firstAnswers.sandbox)}, bare node:http ${started(firstAnswers.floor)} (target: sandbox < 0.5 s)`);
  if (abandoned) console.log(`PostgreSQL x2: 6 clients gave up mid-payment on one process (3 mid-body, 3 right after sending); the next payment answered after ${abandoned.map((ms) => `${ms.toFixed(0)} ms`).join(' and ')} (target: within 1 s)`);
  console.log(`answers not counted (not 200, or not a created payment): ${names.map((n) => `${n} ${results[n].failed}`).join(', ')}`);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(scratch, { recursive: true, force: true });
}
