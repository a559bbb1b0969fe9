import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidFileNameError, processAll, type FileExchangeClient } from '../src/index.js';

// processAll keeps its copies in <workDir>/~paykit-download-<pid>-XXXX, so ../../precious.txt would be the file above.
// Unit test of processAll alone, with a stand-in for the client: the service is trusted for bytes, not for names.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-names-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('processAll with names that are not valid file names', () => {
  it('reports them without touching any local path they point to', async () => {
    const workDir = join(dir, 'work');
    await mkdir(workDir);
    const outside = join(dir, 'precious.txt');
    await writeFile(outside, 'keep me');
    const downloads: string[] = [];
    const listed = [['../../precious.txt', 'A.csv'], []];
    const fakeClient = {
      list: async () => listed.shift() ?? [],
      downloadToFile: async (name: string, path: string) => {
        downloads.push(name);
        await writeFile(path, 'a');
        return { size: 1 };
      },
      delete: async () => undefined,
    } as unknown as FileExchangeClient;
    const report = await processAll(fakeClient, () => undefined, {
      ledger: { has: async () => false, record: async () => undefined },
      workDir: join(workDir),
    });
    expect(downloads).toEqual(['A.csv']);
    expect(report.processed).toEqual(['A.csv']);
    expect(report.failed).toMatchObject([{ name: '../../precious.txt', stage: 'download' }]);
    expect(report.failed[0]?.error).toBeInstanceOf(InvalidFileNameError);
    expect((await stat(outside)).isFile()).toBe(true);
  });
});
