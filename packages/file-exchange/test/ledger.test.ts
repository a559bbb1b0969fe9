import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLedger } from '../src/index.js';

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
});
