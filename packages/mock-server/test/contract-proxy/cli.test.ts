import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsSandbox, type PaymentsSandbox } from '../../src/index.js';
import { paymentRequest, send } from './support.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** The built `paykit-mock` as a real process; `whenReady` runs once it printed `ready`, then it gets SIGINT. */
async function run(args: string[], whenReady?: (stdout: string) => Promise<void>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (whenReady) {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('ready')) resolve();
      });
      void exited.then(() => reject(new Error(`exited early:\n${stdout}\n${stderr}`)));
    });
    try {
      await whenReady(stdout);
    } finally {
      child.kill('SIGINT');
    }
  } else {
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  }
  return { code: await exited, stdout, stderr };
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
      async (stdout) => {
        const url = /contract proxy: (\S+) ->/.exec(stdout)![1]!;
        await send(url, 'GET', '/transactions', { key: secret, headers: { accept: 'application/json' } });
        await send(url, 'POST', '/transactions', { key: secret, headers: { accept: 'application/json' }, body: paymentRequest('no-such-token', 10.005) });
      },
    );
    expect(result.code).toBe(0);
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
