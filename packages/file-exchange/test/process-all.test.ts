// end-to-end: killed processes. Besides the in-process cases, two runs of processAll in a node process of their own
// are killed with SIGKILL (in the handler, after the ledger entry) and followed by a run that finishes the queue.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileLedger, FileNotInListError, LocalFileError, type FileExchangeClient, type ProcessedFileLedger, type ReceivedFile } from '../src/index.js';
import { startMock, type MockFixture } from './support/mock.js';

vi.setConfig({ testTimeout: 30_000 });
const run = promisify(execFile);
let fx: MockFixture;
let client: FileExchangeClient;
let dir: string;

beforeAll(async () => {
  fx = await startMock({ maxListEntries: 2 });
  client = await fx.client();
});
afterAll(async () => {
  await fx?.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-process-all-'));
});
afterEach(async () => {
  for (const name of fx.mock.store.pendingDownloads()) await client.delete(name);
  await rm(dir, { recursive: true, force: true });
});

function enqueue(...names: string[]): void {
  for (const fileName of names) fx.mock.store.enqueueDownload({ fileName, content: Buffer.from(`content of ${fileName}`) });
}

/** An in-memory ledger that also shows what was recorded. */
function memoryLedger(initial: string[] = []): ProcessedFileLedger & { names: Set<string> } {
  const names = new Set(initial);
  return { names, has: async (name) => names.has(name), record: async (name) => void names.add(name) };
}

describe('processAll', () => {
  it('handles every file, past the 1000-entry list limit (here 2), and deletes each after its handler', async () => {
    enqueue('E.csv', 'A.csv', 'C.csv', 'B.csv', 'D.csv');
    const handled: Array<{ name: string; text: string; size: number; stillListed: boolean }> = [];
    const ledger = memoryLedger();
    const report = await client.processAll(
      async (file: ReceivedFile) => {
        const text = (await readFile(file.path, 'utf8'));
        const streamed = Buffer.concat(await file.open().toArray()).toString();
        expect(streamed).toBe(text);
        handled.push({ name: file.name, text, size: file.size, stillListed: fx.mock.store.pendingDownloads().includes(file.name) });
      },
      { ledger, workDir: dir },
    );
    expect(handled.map((h) => h.name)).toEqual(['A.csv', 'B.csv', 'C.csv', 'D.csv', 'E.csv']);
    expect(handled.every((h) => h.text === `content of ${h.name}` && h.size === h.text.length && h.stillListed)).toBe(true);
    expect(report).toEqual({ processed: ['A.csv', 'B.csv', 'C.csv', 'D.csv', 'E.csv'], alreadyProcessed: [], failed: [] });
    expect([...ledger.names].sort()).toEqual(report.processed);
    expect(fx.mock.store.pendingDownloads()).toEqual([]);
  });

  it('leaves a file whose handler failed in the queue, reports it, and carries on with the others', async () => {
    enqueue('A.csv', 'BAD.csv', 'C.csv');
    const ledger = memoryLedger();
    const report = await client.processAll(
      (file) => {
        if (file.name === 'BAD.csv') throw new Error('cannot parse BAD.csv');
      },
      { ledger, workDir: dir },
    );
    expect(report.processed).toEqual(['A.csv', 'C.csv']);
    expect(report.failed).toEqual([{ name: 'BAD.csv', result: 'failed', stage: 'handler', error: new Error('cannot parse BAD.csv') }]);
    expect(fx.mock.store.pendingDownloads()).toEqual(['BAD.csv']);
    expect(ledger.names.has('BAD.csv')).toBe(false);
  });

  it('deletes a file the ledger already holds without handling it again', async () => {
    enqueue('DONE.csv', 'NEW.csv');
    const handled: string[] = [];
    const report = await client.processAll((file) => void handled.push(file.name), { ledger: memoryLedger(['DONE.csv']), workDir: dir });
    expect(handled).toEqual(['NEW.csv']);
    expect(report).toMatchObject({ processed: ['NEW.csv'], alreadyProcessed: ['DONE.csv'], failed: [] });
    expect(fx.mock.store.pendingDownloads()).toEqual([]);
  });

  it('reports a file it could not download and keeps it queued', async () => {
    enqueue('A.csv', 'B.csv');
    fx.mock.store.failNext('download', { status: 404 });
    const report = await client.processAll(() => undefined, { ledger: memoryLedger(), workDir: dir });
    expect(report.processed).toEqual(['B.csv']);
    expect(report.failed).toMatchObject([{ name: 'A.csv', stage: 'download' }]);
    expect(report.failed[0]?.error).toBeInstanceOf(FileNotInListError);
    expect(fx.mock.store.pendingDownloads()).toEqual(['A.csv']);
  });

  it('processes a name valid for the service but too long for a local file name, and carries on after one it cannot', async () => {
    const long = `${'L'.repeat(300)}.csv`;
    enqueue('A.csv', long, 'C.csv');
    const handled: Array<{ name: string; text: string }> = [];
    const report = await client.processAll(
      async (file) => {
        handled.push({ name: file.name, text: await readFile(file.path, 'utf8') });
        // A handler that keeps files under their names cannot keep this one: that file alone fails.
        await writeFile(join(dir, file.name), 'saved');
      },
      { ledger: memoryLedger(), workDir: dir },
    );
    expect(handled).toEqual(['A.csv', 'C.csv', long].sort().map((name) => ({ name, text: `content of ${name}` })));
    expect(report.processed).toEqual(['A.csv', 'C.csv']);
    expect(report.failed).toMatchObject([{ name: long, stage: 'handler', error: { code: 'ENAMETOOLONG' } }]);
    expect(fx.mock.store.pendingDownloads()).toEqual([long]);
  });

  it('does not delete when the ledger cannot record the file, reports it, and stops before handling another', async () => {
    enqueue('A.csv', 'B.csv');
    const full = new Error('disk full');
    const ledger: ProcessedFileLedger = { has: async () => false, record: async () => Promise.reject(full) };
    const handled: string[] = [];
    const settled: unknown[] = [];
    const outcome = client.processAll((file) => void handled.push(file.name), { ledger, workDir: dir, onFile: (file) => settled.push(file) });
    await expect(outcome).rejects.toBe(full);
    expect(handled).toEqual(['A.csv']);
    expect(settled).toMatchObject([{ name: 'A.csv', result: 'failed', stage: 'ledger', error: full }]);
    expect(fx.mock.store.pendingDownloads()).toEqual(['A.csv', 'B.csv']);
  });

  it('stops before handling anything when its ledger cannot be read, naming the ledger', async () => {
    enqueue('A.csv', 'B.csv');
    await writeFile(join(dir, 'plain-file'), '');
    const ledgerPath = join(dir, 'plain-file', 'processed.txt');
    const handled: string[] = [];
    const outcome = client.processAll((file) => void handled.push(file.name), { ledger: new FileLedger(ledgerPath), workDir: dir });
    await expect(outcome).rejects.toBeInstanceOf(LocalFileError);
    await expect(outcome).rejects.toMatchObject({ code: 'ENOTDIR', path: ledgerPath });
    expect(handled).toEqual([]);
    expect(fx.mock.store.pendingDownloads()).toEqual(['A.csv', 'B.csv']);
  });

  it('stops at once when access is refused', async () => {
    enqueue('A.csv');
    fx.mock.store.failNext('list', { status: 403 });
    await expect(client.processAll(() => undefined, { ledger: memoryLedger(), workDir: dir })).rejects.toMatchObject({ name: 'AccessRefusedError' });
    expect(fx.mock.store.pendingDownloads()).toEqual(['A.csv']);
  });

  it('cleans its temporary copies', async () => {
    enqueue('A.csv');
    let seenPath = '';
    await client.processAll((file) => void (seenPath = file.path), { ledger: memoryLedger(), workDir: dir });
    expect(seenPath.startsWith(dir)).toBe(true);
    await expect(readFile(seenPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('processAll in a process that is killed half way', () => {
  const fixture = new URL('./fixtures/process-until-killed.mjs', import.meta.url).pathname;

  async function runOnce(ledgerPath: string, handledLog: string, crashName: string, crashStage: string): Promise<'completed' | 'killed'> {
    const env = { ...process.env, FX_PFX: fx.certificates.clientPfxPath, FX_PFX_PASSWORD: fx.certificates.clientPfxPassword, FX_CA: fx.certificates.caCertPath };
    try {
      await run(process.execPath, [fixture, fx.mock.restUrl, ledgerPath, handledLog, crashName, crashStage, dir], { env });
      return 'completed';
    } catch (error) {
      if ((error as { signal?: string }).signal === 'SIGKILL') return 'killed';
      throw error;
    }
  }

  it.each([
    { stage: 'in-handler', handledOverall: ['A.csv', 'B.csv', 'B.csv', 'C.csv'] },
    { stage: 'after-ledger', handledOverall: ['A.csv', 'B.csv', 'C.csv'] },
  ])('loses nothing when killed $stage: the next run finishes the queue', async ({ stage, handledOverall }) => {
    enqueue('A.csv', 'B.csv', 'C.csv');
    const ledgerPath = join(dir, 'ledger.txt');
    const handledLog = join(dir, 'handled.txt');
    expect(await runOnce(ledgerPath, handledLog, 'B.csv', stage)).toBe('killed');
    expect(fx.mock.store.pendingDownloads()).toEqual(['B.csv', 'C.csv']);
    expect(await runOnce(ledgerPath, handledLog, '', 'none')).toBe('completed');
    expect((await readFile(handledLog, 'utf8')).trim().split('\n')).toEqual(handledOverall);
    expect(fx.mock.store.pendingDownloads()).toEqual([]);
    const ledger = new FileLedger(ledgerPath);
    expect(await Promise.all(['A.csv', 'B.csv', 'C.csv'].map((name) => ledger.has(name)))).toEqual([true, true, true]);
  });
});
