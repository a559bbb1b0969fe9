import { execFileSync } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resizeSmallDisk, smallDiskAvailable, smallDiskNote, withSmallDisk } from '@paykit/test-support';
import { DownloadLimitReachedError, FileLedger, FileNotInListError, LocalFileError, TransientFailureError, type FileExchangeClient } from '../src/index.js';
import { startMock, type MockFixture } from './support/mock.js';
import { startMtlsServer } from './support/mtls-server.js';
import { rejectionOf } from './support/rejection.js';

// What a download does to the local disk: nothing at the target until the whole file has come (a temporary name
// beside it, renamed at the end), and, on a disk too full for the file, no download spent that the space check could
// have spared (the service allows each file a set number of downloads, then refuses it for good with 429).

const MiB = 1024 * 1024;
let fx: MockFixture;
let client: FileExchangeClient;
let dir: string;

beforeAll(async () => {
  // Two downloads per file here, so that a download spent for nothing shows as a 429.
  fx = await startMock({ maxDownloadAttempts: 2 });
  client = await fx.client({ retry: false });
});
afterAll(async () => {
  await fx?.close();
});
afterEach(async () => {
  for (const name of fx.mock.store.pendingDownloads()) await client.delete(name);
  if (dir) await rm(dir, { recursive: true, force: true });
});
const scratch = async () => (dir = await mkdtemp(join(tmpdir(), 'paykit-local-disk-')));
const leftovers = async (folder: string) => (await readdir(folder)).filter((name) => name.startsWith('~'));

describe('downloadToFile leaves what was at its path until the whole file has come', () => {
  it('a file not in the list (404): the existing file as it was', async () => {
    const target = join(await scratch(), 'REPORT.csv');
    await writeFile(target, 'the copy from yesterday');
    expect(await rejectionOf(client.downloadToFile('MISSING.csv', target))).toBeInstanceOf(FileNotInListError);
    expect(await readFile(target, 'utf8')).toBe('the copy from yesterday');
    expect(await leftovers(dir)).toEqual([]);
  });

  it('a download cut off part way: the existing file as it was, no temporary file left; the next try replaces it', async () => {
    const target = join(await scratch(), 'CUT.csv');
    await writeFile(target, 'the copy from yesterday');
    fx.mock.store.enqueueDownload({ fileName: 'CUT.csv', content: Buffer.alloc(2 * MiB, 1) });
    fx.mock.store.failNext('download', { dropConnection: true });
    expect(await rejectionOf(client.downloadToFile('CUT.csv', target))).toBeInstanceOf(TransientFailureError);
    expect(await readFile(target, 'utf8')).toBe('the copy from yesterday');
    expect(await leftovers(dir)).toEqual([]);
    await expect(client.downloadToFile('CUT.csv', target)).resolves.toEqual({ size: 2 * MiB });
    expect((await readFile(target)).equals(Buffer.alloc(2 * MiB, 1))).toBe(true);
    expect(await leftovers(dir)).toEqual([]);
  });
});

describe('downloadToFile to something that is not a regular file', () => {
  it('writes a pipe (or a device) in place: it stays what it was, never replaced by a regular file', async () => {
    const fifo = join(await scratch(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    fx.mock.store.enqueueDownload({ fileName: 'TO_PIPE.csv', content: Buffer.from('through a pipe') });
    const reading = readFile(fifo, 'utf8');
    await expect(client.downloadToFile('TO_PIPE.csv', fifo)).resolves.toEqual({ size: 14 });
    expect(await reading).toBe('through a pipe');
    expect((await stat(fifo)).isFIFO()).toBe(true);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('refuses a folder with LocalFileError, before spending a download', async () => {
    fx.mock.store.enqueueDownload({ fileName: 'TO_FOLDER.csv', content: Buffer.from('x') });
    expect(await rejectionOf(client.downloadToFile('TO_FOLDER.csv', await scratch()))).toMatchObject({ name: 'LocalFileError', code: 'EISDIR' });
  });
});

describe.skipIf(!smallDiskAvailable)(`a disk too small for the file, ${smallDiskNote}`, () => {
  it('downloadToFile: LocalFileError ENOSPC with the bytes the file needs, before a byte is written; the target as it was', async () => {
    await withSmallDisk(8, async (disk) => {
      const target = join(disk, 'BIG.bin');
      await writeFile(target, 'the copy from yesterday');
      fx.mock.store.enqueueDownload({ fileName: 'BIG.bin', content: Buffer.alloc(20 * MiB, 2) });
      const error = await rejectionOf(client.downloadToFile('BIG.bin', target));
      expect(error).toBeInstanceOf(LocalFileError);
      expect(error).toMatchObject({ code: 'ENOSPC', neededBytes: 20 * MiB, retryable: false });
      expect(await readFile(target, 'utf8')).toBe('the copy from yesterday');
      expect(await leftovers(disk)).toEqual([]);
    });
  });

  it('a body without a length that fills the disk: LocalFileError ENOSPC, needing more than what had come; nothing left', async () => {
    const server = await startMtlsServer(fx.certificates, (_, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 20; i++) response.write(Buffer.alloc(MiB, 3));
      response.end();
    });
    try {
      const unannounced = await fx.client({ baseUrl: `${server.origin}/services/messaging/rest`, retry: false });
      await withSmallDisk(8, async (disk) => {
        const error = await rejectionOf(unannounced.downloadToFile('CHUNKED.bin', join(disk, 'CHUNKED.bin')));
        expect(error).toMatchObject({ name: 'LocalFileError', code: 'ENOSPC' });
        expect((error as LocalFileError).neededBytes).toBeGreaterThan(7 * MiB);
        expect(await readdir(disk)).toEqual([]);
      });
    } finally {
      await server.close();
    }
  });

  it('processAll spends one download on a file the disk cannot hold, then none until there is room, then saves it', async () => {
    await withSmallDisk(8, async (disk) => {
      const ledger = new FileLedger(join(await scratch(), 'ledger.txt'));
      const big = Buffer.alloc(12 * MiB, 4);
      fx.mock.store.enqueueDownload({ fileName: 'BIG_1.bin', content: big });
      fx.mock.store.enqueueDownload({ fileName: 'SMALL_1.csv', content: Buffer.from('fits') });
      const handled: Array<{ name: string; size: number }> = [];
      const handler = (file: { name: string; size: number }) => void handled.push({ name: file.name, size: file.size });
      const run = () => client.processAll(handler, { ledger, workDir: disk });

      // First run: the download of BIG_1 is spent (the service counts it), the disk is found too small before a byte
      // is written; the other file goes on.
      const first = await run();
      expect(first.processed).toEqual(['SMALL_1.csv']);
      expect(first.failed).toEqual([expect.objectContaining({ name: 'BIG_1.bin', stage: 'download', error: expect.objectContaining({ code: 'ENOSPC', neededBytes: 12 * MiB }) })]);
      expect(await ledger.localFailure('BIG_1.bin')).toMatchObject({ code: 'ENOSPC', neededBytes: 12 * MiB });

      // Runs while the disk is still too small spend no download: the service's second and last one is still there.
      for (let again = 0; again < 3; again++) {
        const report = await run();
        expect(report.failed).toEqual([
          expect.objectContaining({ name: 'BIG_1.bin', stage: 'download', error: expect.objectContaining({ name: 'LocalFileError', code: 'ENOSPC', message: expect.stringMatching(/not downloaded again/) }) }),
        ]);
      }

      // Room made: the next run downloads it (its second download, which a run that spent one each time would not
      // have had: DownloadLimitReachedError).
      resizeSmallDisk(disk, 32);
      const last = await run();
      expect(last.failed.map((failure) => failure.error)).not.toContainEqual(expect.any(DownloadLimitReachedError));
      expect(last.processed).toEqual(['BIG_1.bin']);
      expect(handled).toEqual([
        { name: 'SMALL_1.csv', size: 4 },
        { name: 'BIG_1.bin', size: 12 * MiB },
      ]);
      expect(await ledger.localFailure('BIG_1.bin')).toBeUndefined();
      expect(fx.mock.store.pendingDownloads()).toEqual([]);
    });
  });
});
