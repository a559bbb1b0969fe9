import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identify, identityName } from '@paykit/process-liveness';
import { endedProcess, hasProcStat, reusedPid } from '@paykit/process-liveness/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/state/sqlite-store.js';

// The owner of a state file (`FILE.pid`) is judged by pid and start time (@paykit/process-liveness): a pid the
// system has given to another process since the owner was killed does not keep the file "in use". A `FILE.pid` written
// before start times were recorded holds the pid alone and is judged by it. (A real second sandbox process refused,
// then a killed one taken over: state-file.test.ts.)

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-owner-'));
  file = join(dir, 'state.sqlite');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe.runIf(hasProcStat)('a state file whose FILE.pid names another process', () => {
  it.each([
    { case: 'a live owner (the parent of this test process)', content: async () => identityName(identify(process.ppid)) },
    { case: 'a live owner, written by an earlier sandbox (pid alone)', content: async () => `${process.ppid}\n` },
  ])('is refused while that process runs: $case', async ({ content }) => {
    await writeFile(`${file}.pid`, await content());
    expect(() => openSqliteStore(file)).toThrow(new RegExp(`is in use by process ${process.ppid} `));
    // Left as the owner wrote it.
    expect(await readFile(`${file}.pid`, 'utf8')).toBe(await content());
  });

  it.each([
    { case: 'whose pid another process now has (this one, started at another time)', content: async () => identityName(reusedPid(identify(process.pid))) },
    { case: 'whose pid another process now has (the parent, started at another time)', content: async () => identityName(reusedPid(identify(process.ppid))) },
    { case: 'that ended', content: async () => identityName(await endedProcess()) },
    { case: 'that ended, written by an earlier sandbox (pid alone)', content: async () => String((await endedProcess()).pid) },
    { case: 'that no one can read', content: async () => 'not a process' },
  ])('is taken over from an owner $case, and names this process after', async ({ content }) => {
    await writeFile(`${file}.pid`, await content());
    const store = openSqliteStore(file);
    try {
      expect(await readFile(`${file}.pid`, 'utf8')).toBe(identityName(identify(process.pid)));
    } finally {
      await store.close();
    }
    expect(existsSync(`${file}.pid`)).toBe(false);
  });
});
