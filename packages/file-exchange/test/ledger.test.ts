import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultLedgerPathFor, FileLedger, LocalFileError } from '../src/index.js';

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

describe('the default ledger is the service\'s, for this user', () => {
  const home = { HOME: '/home/operator' };
  it('is the same from every working folder, under the user\'s state folder, and another for another service', () => {
    const rest = 'https://files.example.com/services/messaging/rest';
    const path = defaultLedgerPathFor(rest, home);
    expect(path).toMatch(/^\/home\/operator\/\.local\/state\/paykit\/file-exchange\/files\.example\.com_443-[0-9a-f]{8}\/processed\.txt$/);
    expect(isAbsolute(path)).toBe(true);
    expect(defaultLedgerPathFor(rest, { ...home, XDG_STATE_HOME: '/var/lib/operator' })).toMatch(/^\/var\/lib\/operator\/paykit\/file-exchange\//);
    expect(defaultLedgerPathFor('https://files-test.example.com/services/messaging/rest', home)).not.toBe(path);
    expect(defaultLedgerPathFor('https://files.example.com:8443/services/messaging/rest', home)).not.toBe(path);
  });

  it('still reads the ledger an earlier version kept in the working folder, and never writes it', async () => {
    const legacy = join(dir, 'legacy.txt');
    await writeFile(legacy, 'OLD.csv\n');
    const ledger = new FileLedger(join(dir, 'state', 'processed.txt'), { alsoRead: [legacy] });
    expect([await ledger.has('OLD.csv'), await ledger.has('NEW.csv')]).toEqual([true, false]);
    await ledger.record('NEW.csv');
    expect(await readFile(legacy, 'utf8')).toBe('OLD.csv\n');
    expect(await readFile(join(dir, 'state', 'processed.txt'), 'utf8')).toBe('NEW.csv\n');
  });
});

describe('a ledger of a million names (five years at 500 files a day)', () => {
  it('is answered exactly, in a few MiB: names held as hashes, each hit checked against the file', async () => {
    const path = join(dir, 'processed.txt');
    const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `PAYMENTS_REPORT_${String(from + i).padStart(7, '0')}.csv`).join('\n');
    await writeFile(path, `${names(0, 500_000)}\n${names(500_000, 1_000_000)}\r\n`);
    // In a process of its own, so that its memory is its own: the ledger read, looked up, appended to.
    const script = `
      const { FileLedger } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
      globalThis.gc(); const before = process.memoryUsage().rss;
      const ledger = new FileLedger(${JSON.stringify(path)});
      const answers = [await ledger.has('PAYMENTS_REPORT_0000000.csv'), await ledger.has('PAYMENTS_REPORT_0999999.csv'),
        await ledger.has('PAYMENTS_REPORT_0500000.csv'), await ledger.has('PAYMENTS_REPORT_1000000.csv'), await ledger.has('PAYMENTS_REPORT_000000.csv')];
      await ledger.record('PAYMENTS_REPORT_1000000.csv');
      answers.push(await ledger.has('PAYMENTS_REPORT_1000000.csv'), await new FileLedger(${JSON.stringify(path)}).has('PAYMENTS_REPORT_1000000.csv'));
      const peak = process.resourceUsage().maxRSS * 1024;
      console.log(JSON.stringify({ answers, grewMiB: (peak - before) / 1048576 }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', script]);
    const { answers, grewMiB } = JSON.parse(stdout) as { answers: boolean[]; grewMiB: number };
    expect(answers).toEqual([true, true, true, false, false, true, true]);
    // A Set of the million names (the former ledger) grew such a process by 178 MiB; this one by about 20 MiB.
    expect(grewMiB).toBeLessThan(48);
    // A process of its own and 30 MB written and read: seconds on a loaded machine.
  }, 30_000);
});
