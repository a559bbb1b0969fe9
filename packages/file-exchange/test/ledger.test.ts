import { mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLedger, LocalFileError } from '../src/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-ledger-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('FileLedger', () => {
  it('remembers recorded names across instances, in a private file', async () => {
    const path = join(dir, 'nested', 'processed.txt');
    const first = new FileLedger(path);
    expect(await first.has('A.csv')).toBe(false);
    await first.record('A.csv');
    await first.record('B.xml');
    await first.record('A.csv');
    const second = new FileLedger(path);
    expect([await second.has('A.csv'), await second.has('B.xml'), await second.has('C.txt')]).toEqual([true, true, false]);
    expect(await readFile(path, 'utf8')).toBe('A.csv\nB.xml\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('refuses a name that would break the one-name-per-line format', async () => {
    await expect(new FileLedger(join(dir, 'l.txt')).record('A\nB')).rejects.toThrow(/line break/);
  });

  // Run as root in CI, so permissions cannot make these fail: the file system's shape does.
  it.each([
    {
      failure: 'read: a folder in its path is a regular file',
      setUp: async () => {
        await writeFile(join(dir, 'plain-file'), '');
        return join(dir, 'plain-file', 'processed.txt');
      },
      call: (ledger: FileLedger) => ledger.has('A.csv'),
      message: /cannot be read \(ENOTDIR\)/,
      code: 'ENOTDIR',
    },
    {
      failure: 'read: it is a folder',
      setUp: async () => dir,
      call: (ledger: FileLedger) => ledger.record('A.csv'),
      message: /cannot be read \(EISDIR\)/,
      code: 'EISDIR',
    },
    {
      failure: 'written: it links to a folder that does not exist',
      setUp: async () => {
        const path = join(dir, 'processed.txt');
        await symlink(join(dir, 'missing', 'processed.txt'), path);
        return path;
      },
      call: (ledger: FileLedger) => ledger.record('A.csv'),
      message: /cannot be written \(ENOENT\)/,
      code: 'ENOENT',
    },
  ])('fails with a LocalFileError naming the ledger when it cannot be $failure', async ({ setUp, call, message, code }) => {
    const path = await setUp();
    const error = await call(new FileLedger(path)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error).toMatchObject({ code, path, message: expect.stringMatching(message) });
    expect((error as Error).message).toContain(path);
  });
});
