// end-to-end: the built `paykit-mock proxy` and `paykit-mock replay` as real processes, stopped by signals (SIGINT,
// SIGHUP) and killed (SIGKILL), their exit codes and files read after.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPaymentsSandbox, type PaymentsSandbox } from '../../src/index.js';
import { paymentRequest, send } from './support.js';

// Each test starts a Node process (or two) and waits for its output; on a loaded two-core machine a start has taken
// seconds. A bound on failure only: every wait below is for an event (a line printed, a process closed).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

// A test that fails before its signal leaves no proxy running behind it.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The process ids whose parent is `pid` (from /proc): what a proxy started beside itself. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid ...`: the name may hold spaces and parentheses, so read after its last `)`.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

/**
 * The built `paykit-mock` as a real process. With `stop`: once it printed `stop.after`, `stop.then` runs (given the
 * process), then it gets `stop.signal` (SIGINT by default). Resolves once its output is closed (not at its exit),
 * so no line it printed is missed.
 */
async function run(args: string[], stop?: { after: string; then?: (stdout: string, child: ChildProcess) => Promise<void>; signal?: NodeJS.Signals }): Promise<Ran> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('close', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<Pick<Ran, 'code' | 'signal'>>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  if (stop) {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes(stop.after) && resolve());
      void closed.then(() => reject(new Error(`exited before printing ${JSON.stringify(stop.after)}:\n${stdout}\n${stderr}`)));
    });
    try {
      await stop.then?.(stdout, child);
    } finally {
      child.kill(stop.signal ?? 'SIGINT');
    }
  }
  return { ...(await closed), stdout, stderr };
}

const proxyUrl = (stdout: string) => /contract proxy: (\S+) ->/.exec(stdout)![1]!;
const accept = { accept: 'application/json' };

describe('paykit-mock proxy and replay', () => {
  let sandbox: PaymentsSandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startPaymentsSandbox();
    dir = await mkdtemp(join(tmpdir(), 'paykit-proxy-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints a line per violation, and at SIGINT the summary, the JSON and HTML reports and the recording; the recording replays', async () => {
    const secret = sandbox.keys.secret[0]!;
    const files = { har: join(dir, 'flow.har'), json: join(dir, 'report.json'), html: join(dir, 'report.html') };
    const result = await run(['proxy', '--upstream', sandbox.url, '--record', files.har, '--report-json', files.json, '--report-html', files.html], {
      after: 'proxy ready;',
      then: async (stdout) => {
        const url = proxyUrl(stdout);
        await send(url, 'GET', '/transactions', { key: secret, headers: accept });
        await send(url, 'POST', '/transactions', { key: secret, headers: accept, body: paymentRequest('no-such-token', 10.005) });
      },
    });
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toContain('validated in process');
    expect(result.stderr).toContain('[request] idempotency-key createTransaction header.Idempotency-Key:');
    expect(result.stderr).toContain('[request] decimal-places createTransaction body.principalAmount:');
    expect(result.stdout).toMatch(/contract proxy: 2 exchanges, 2 request violations, 0 answer violations/);
    expect(result.stdout).toContain('verdict: FAIL');
    const report = JSON.parse(await readFile(files.json, 'utf8'));
    expect(report).toMatchObject({ upstream: sandbox.url, mode: 'observe', contract: { name: 'payments' }, operations: { createTransaction: 1, listTransactions: 1 } });
    expect(report.byRule).toEqual({ 'decimal-places': { request: 1, answer: 0 }, 'idempotency-key': { request: 1, answer: 0 } });
    expect(await readFile(files.html, 'utf8')).toContain('<code>decimal-places</code>');
    const har = await readFile(files.har, 'utf8');
    expect(har).not.toContain(secret);
    expect(JSON.parse(har).log.entries).toHaveLength(2);

    // Against a fresh sandbox: same statuses and bodies, exit 0; with keys it refuses, exit 1.
    const fresh = await startPaymentsSandbox();
    try {
      const replayed = await run(['replay', files.har, '--target', fresh.url, '--secret-key', fresh.keys.secret[0]!]);
      expect(replayed.stdout).toContain('2 exchanges replayed, 0 differ');
      expect(replayed.code).toBe(0);
      const refused = await run(['replay', files.har, '--target', fresh.url, '--secret-key', 'sk_unknown']);
      expect(refused.stdout).toContain('2 exchanges replayed, 2 differ');
      expect(refused.code).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('SIGHUP (a closed terminal) ends the session like Ctrl-C: exit 0, the summary and the reports written', async () => {
    const json = join(dir, 'hangup.json');
    const result = await run(['proxy', '--upstream', sandbox.url, '--report-json', json], {
      after: 'proxy ready;',
      signal: 'SIGHUP',
      then: async (stdout) => void (await send(proxyUrl(stdout), 'GET', '/transactions', { key: sandbox.keys.secret[0]!, headers: accept })),
    });
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(JSON.parse(await readFile(json, 'utf8'))).toMatchObject({ exchanges: 1 });
  });

  it('SIGKILL right after an answer: the exchange is in the recording, and no process of the proxy is left', async () => {
    const secret = sandbox.keys.secret[0]!;
    const har = join(dir, 'killed.har');
    let pid = 0;
    const result = await run(['proxy', '--upstream', sandbox.url, '--record', har], {
      after: 'proxy ready;',
      signal: 'SIGKILL',
      then: async (stdout, child) => {
        pid = child.pid!;
        const url = proxyUrl(stdout);
        await send(url, 'GET', '/transactions', { key: secret, headers: accept });
        await send(url, 'POST', '/transactions', { key: secret, headers: accept, body: paymentRequest('no-such-token', 10) });
        // The proxy validates in process: it started no other process that a kill could leave behind (and the
        // listing does see children: the proxy is this test's).
        expect(childrenOf(process.pid)).toContain(pid);
        expect(childrenOf(pid)).toEqual([]);
      },
    });
    expect(result.signal).toBe('SIGKILL');
    const text = await readFile(har, 'utf8');
    expect(text).not.toContain(secret);
    const recorded = JSON.parse(text) as { log: { _paykitBaseUrl: string; entries: { _paykitOperation: string }[] } };
    expect(recorded.log._paykitBaseUrl).toBe(sandbox.url);
    expect(recorded.log.entries.map((entry) => entry._paykitOperation)).toEqual(['listTransactions', 'createTransaction']);
  });

  it('a port already taken ends the command at once, exit 1 with the port named, and leaves an existing --record file as it was', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const earlier = join(dir, 'earlier.har');
    await writeFile(earlier, '{"log":{"entries":["from an earlier session"]}}');
    try {
      const result = await run(['proxy', '--upstream', sandbox.url, '--port', String(port), '--record', earlier]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`The contract proxy cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`);
      expect(result.stdout).not.toContain('proxy ready');
      expect(await readFile(earlier, 'utf8')).toBe('{"log":{"entries":["from an earlier session"]}}');
    } finally {
      taken.close();
    }
  });

  it.each([
    [['proxy'], '--upstream is required'],
    [['proxy', '--upstream', 'not an address'], '--upstream must be an absolute address'],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--duration', 'NaN'], '--duration needs a positive number'],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--api', 'soap'], '--api is payments or file-exchange'],
    [['replay', '--target', 'http://127.0.0.1:1'], 'a HAR file and --target are required'],
  ])('%j is refused before anything starts: %s', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });
});
