import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identify, identityName, type ProcessIdentity } from '@paykit/process-liveness';
import { endedProcess, hasProcStat, reusedPid } from '@paykit/process-liveness/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunLock, RunLockedError } from '../src/cli/run-lock.js';

// Whose entries the lock folder holds is judged by pid and start time (@paykit/process-liveness): the same pid with
// another start time is a process the system started later under a reused pid, not the run that wrote the entry.
let dir: string;
let ledger: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-run-lock-'));
  ledger = join(dir, 'ledger.txt');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** An entry as a run of this or an earlier version writes it (the form has not changed: `<kind>-<pid>-<start>`). */
async function plant(kind: 'run' | 'group', owner: ProcessIdentity | string): Promise<string> {
  await mkdir(`${ledger}.lock`, { recursive: true });
  const name = `${kind}-${typeof owner === 'string' ? owner : identityName(owner)}`;
  await writeFile(join(`${ledger}.lock`, name), '');
  return name;
}

describe.runIf(hasProcStat)('the run lock, judging the entries it finds by pid and start time', () => {
  it.each([
    { case: 'a live run (the parent of this test process)', kind: 'run' as const, owner: () => identify(process.ppid), holder: /pid \d+/ },
    { case: 'a live processing command group', kind: 'group' as const, owner: () => identify(process.ppid), holder: /process group \d+ of a run that was killed/ },
    { case: 'a live run recorded without a start time (pid alone)', kind: 'run' as const, owner: () => `${process.ppid}-`, holder: /pid \d+/ },
  ])('is held by $case', async ({ kind, owner, holder }) => {
    const name = await plant(kind, owner());
    const error = await RunLock.acquire(ledger).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunLockedError);
    expect((error as Error).message).toMatch(holder);
    // This run withdrew its own entry; the holder's stays.
    expect(await readdir(`${ledger}.lock`)).toEqual([name]);
  });

  it.each([
    { case: 'a run whose pid another process now has (this one, started at another time)', kind: 'run' as const, owner: async () => reusedPid(identify(process.pid)) },
    { case: 'a processing command group whose leader pid was reused', kind: 'group' as const, owner: async () => reusedPid(identify(process.ppid)) },
    { case: 'a run that ended', kind: 'run' as const, owner: endedProcess },
    { case: 'a processing command group that ended', kind: 'group' as const, owner: endedProcess },
  ])('is taken over from $case, whose entry is removed', async ({ kind, owner }) => {
    const planted = await plant(kind, await owner());
    const lock = await RunLock.acquire(ledger);
    const entries = await readdir(`${ledger}.lock`);
    expect(entries).not.toContain(planted);
    expect(entries).toEqual([`run-${identityName(identify(process.pid))}`]);
    lock.release();
    expect(await readdir(`${ledger}.lock`)).toEqual([]);
  });
});
