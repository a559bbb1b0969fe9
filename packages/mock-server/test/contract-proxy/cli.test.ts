import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsSandbox, type PaymentsSandbox } from '../../src/index.js';
import { paymentRequest, send, slowStart } from './support.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

// A test that fails or times out before its SIGINT leaves no proxy (nor its Prism) running behind it.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGTERM');
});

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The built `paykit-mock` as a real process. With `interrupt`: once it printed `interrupt.after`, `interrupt.then`
 * runs, then it gets SIGINT. Resolves once its output is closed (not at its exit), so no line it printed is missed.
 */
async function run(
  args: string[],
  interrupt?: { after: string; then?: (stdout: string) => Promise<void>; signal?: 'SIGINT' | 'SIGKILL' },
): Promise<Ran> {
  // SIGKILL goes to the whole process group, as a closed terminal or an OOM kill of a container would end it: the
  // proxy and its Prism alike.
  const group = interrupt?.signal === 'SIGKILL';
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: group });
  running.add(child);
  child.once('close', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<Pick<Ran, 'code' | 'signal'>>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  if (interrupt) {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes(interrupt.after) && resolve());
      void closed.then(() => reject(new Error(`exited before printing ${JSON.stringify(interrupt.after)}:\n${stdout}\n${stderr}`)));
    });
    try {
      await interrupt.then?.(stdout);
    } finally {
      if (group) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGINT');
    }
  }
  return { ...(await closed), stdout, stderr };
}

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

  it('prints a line per violation, and at SIGINT the summary, the JSON and HTML reports and the recording', async () => {
    const secret = sandbox.keys.secret[0]!;
    const files = { har: join(dir, 'flow.har'), json: join(dir, 'report.json'), html: join(dir, 'report.html') };
    const result = await run(
      ['proxy', '--upstream', sandbox.url, '--record', files.har, '--report-json', files.json, '--report-html', files.html],
      {
        after: 'proxy ready;',
        then: async (stdout) => {
          const url = /contract proxy: (\S+) ->/.exec(stdout)![1]!;
          await send(url, 'GET', '/transactions', { key: secret, headers: { accept: 'application/json' } });
          await send(url, 'POST', '/transactions', { key: secret, headers: { accept: 'application/json' }, body: paymentRequest('no-such-token', 10.005) });
        },
      },
    );
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stderr).toContain('[request] idempotency-key createTransaction header.Idempotency-Key:');
    expect(result.stderr).toContain('[request] decimal-places createTransaction body.principalAmount:');
    expect(result.stdout).toMatch(/contract proxy: 2 exchanges, 2 request violations, 0 answer violations/);
    const report = JSON.parse(await readFile(files.json, 'utf8'));
    expect(report.operations).toEqual({ createTransaction: 1, listTransactions: 1 });
    expect(report.byRule).toEqual({ 'decimal-places': { request: 1, answer: 0 }, 'idempotency-key': { request: 1, answer: 0 } });
    const html = await readFile(files.html, 'utf8');
    expect(html).toContain('<td>decimal-places</td>');
    const har = await readFile(files.har, 'utf8');
    expect(har).not.toContain(secret);
    expect(JSON.parse(har).log.entries).toHaveLength(2);

    // The recording replays against a fresh sandbox: same statuses, exit 0; with keys it refuses, exit 1.
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
  }, slowStart);

  it('a proxy killed mid-session (SIGKILL to its process group) leaves every exchange recorded so far in a HAR that parses', async () => {
    const secret = sandbox.keys.secret[0]!;
    const har = join(dir, 'killed.har');
    const result = await run(['proxy', '--upstream', sandbox.url, '--record', har], {
      after: 'proxy ready;',
      signal: 'SIGKILL',
      then: async (stdout) => {
        const url = /contract proxy: (\S+) ->/.exec(stdout)![1]!;
        const accept = { accept: 'application/json' };
        await send(url, 'GET', '/transactions', { key: secret, headers: accept });
        await send(url, 'POST', '/transactions', { key: secret, headers: accept, body: paymentRequest('no-such-token', 10) });
        // The entry is written just after its answer is delivered: the kill comes once both are on disk.
        await expect.poll(async () => (await readFile(har, 'utf8')).split('"_paykitOperation"').length - 1).toBe(2);
      },
    });
    expect(result.signal).toBe('SIGKILL');
    const text = await readFile(har, 'utf8');
    expect(text).not.toContain(secret);
    const recorded = JSON.parse(text) as { log: { _paykitBaseUrl: string; entries: { _paykitOperation: string }[] } };
    expect(recorded.log._paykitBaseUrl).toBe(sandbox.url);
    expect(recorded.log.entries.map((entry) => entry._paykitOperation)).toEqual(['listTransactions', 'createTransaction']);
  }, slowStart);

  it('a SIGINT while Prism still starts ends like any stop: exit 0, the summary, and the (empty) reports on disk', async () => {
    const files = { har: join(dir, 'early.har'), json: join(dir, 'early.json') };
    const result = await run(['proxy', '--upstream', sandbox.url, '--record', files.har, '--report-json', files.json], {
      after: 'starting the contract proxy',
    });
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toMatch(/contract proxy: 0 exchanges, 0 request violations, 0 answer violations/);
    expect(JSON.parse(await readFile(files.json, 'utf8'))).toMatchObject({ exchanges: 0, totals: { request: 0, answer: 0 } });
    expect(JSON.parse(await readFile(files.har, 'utf8')).log.entries).toEqual([]);
  }, slowStart);

  it('a port already taken ends the command at once: exit 1, the port named', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const result = await run(['proxy', '--upstream', sandbox.url, '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`The contract proxy cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`);
      expect(result.stdout).not.toContain('proxy ready');
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
