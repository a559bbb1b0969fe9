import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identify, identityName } from '@paykit/process-liveness';
import { endedProcess, hasProcStat, reusedPid } from '@paykit/process-liveness/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeStaleTemporaries, removeTemporary } from '../src/temporary-files.js';

// A temporary entry names its process by pid and start time; the next run removes those of processes that no longer
// run (@paykit/process-liveness), so a pid given to another process since a SIGKILL does not keep a leftover. Entries
// named by earlier builds (pid alone) are judged by their pid. (The whole CLI after a killed run: cli.test.ts.)

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-temporary-owners-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe.runIf(hasProcStat)('removeStaleTemporaries, judging each leftover by its pid and start time', () => {
  it.each([
    { case: 'a live process (the parent of this test process)', name: async () => `~paykit-download-${identityName(identify(process.ppid))}-a1B2c3`, kept: true },
    { case: 'a live process, named by an earlier build (pid alone)', name: async () => `~paykit-saving-${process.ppid}-d4e5f6a7`, kept: true },
    { case: 'this process, named by an earlier build', name: async () => `~paykit-upload-${process.pid}-g7h8i9`, kept: true },
    { case: 'a process whose pid another process now has (this one, started at another time)', name: async () => `~paykit-download-${identityName(reusedPid(identify(process.pid)))}-a1B2c3`, kept: false },
    { case: 'a process whose pid another process now has (the parent)', name: async () => `~paykit-saving-${identityName(reusedPid(identify(process.ppid)))}-d4e5f6a7`, kept: false },
    { case: 'a process that ended', name: async () => `~paykit-download-${identityName(await endedProcess())}-a1B2c3`, kept: false },
    { case: 'a process that ended, named by an earlier build', name: async () => `~paykit-download-${(await endedProcess()).pid}-123456`, kept: false },
  ])('$case: kept $kept', async ({ name, kept }) => {
    const entry = await name();
    await mkdir(join(dir, entry));
    expect(await readdir(dir)).toEqual([entry]);
    await removeStaleTemporaries(dir);
    expect(await readdir(dir)).toEqual(kept ? [entry] : []);
  });

  it("names this process's own folders by pid and start time, and keeps them", async () => {
    const folder = await makeTemporaryFolder(dir, 'download');
    expect(folder.slice(dir.length + 1)).toMatch(new RegExp(`^~paykit-download-${identityName(identify(process.pid))}-[^-]+$`));
    await removeStaleTemporaries(dir);
    expect(existsSync(folder)).toBe(true);
    await removeTemporary(folder);
  });
});
