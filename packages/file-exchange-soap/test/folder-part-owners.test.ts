import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identify, identityName } from '@paykit/process-liveness';
import { endedProcess, hasProcStat, reusedPid } from '@paykit/process-liveness/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoapFolder } from '../src/folder-sinks.js';
import type { FieldDescriptor } from '../src/generated/contract.js';

// A `.part` (or `.json.tmp`) file names the process writing it; restore() removes those of processes that no longer
// run, judged by pid and start time (@paykit/process-liveness), and keeps those of processes that do. Files named by
// earlier builds (pid alone) are judged by their pid.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-part-owners-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.runIf(hasProcStat)('restore() and the files being written by other processes', () => {
  it.each([
    { case: 'a live writer (the parent of this test process)', name: async () => `.paykit-soap-${identityName(identify(process.ppid))}-${randomUUID()}.part`, kept: true },
    { case: 'a live writer, named by an earlier build (pid alone)', name: async () => `.paykit-soap-${process.ppid}-${randomUUID()}.part`, kept: true },
    { case: 'a live writer without a known start time', name: async () => `.paykit-soap-${process.ppid}--${randomUUID()}.part`, kept: true },
    { case: 'a writer whose pid another process now has', name: async () => `.paykit-soap-${identityName(reusedPid(identify(process.pid)))}-${randomUUID()}.part`, kept: false },
    { case: 'a sidecar being written by a writer whose pid was reused', name: async () => `.paykit-soap-${identityName(reusedPid(identify(process.ppid)))}-${randomUUID()}.json.tmp`, kept: false },
    { case: 'a writer that ended', name: async () => `.paykit-soap-${identityName(await endedProcess())}-${randomUUID()}.part`, kept: false },
    { case: 'a writer that ended, named by an earlier build', name: async () => `.paykit-soap-${(await endedProcess()).pid}-${randomUUID()}.part`, kept: false },
    { case: 'a name of no writer', name: async () => '.paykit-soap-nobody.part', kept: false },
  ])('$case: kept $kept', async ({ name, kept }) => {
    const folder = await mkdtemp(join(dir, 'restore-'));
    const file = await name();
    await writeFile(join(folder, file), 'partial');
    expect(await readdir(folder)).toEqual([file]);
    expect(new SoapFolder(folder).restore()).toEqual([]);
    expect(await readdir(folder)).toEqual(kept ? [file] : []);
  });

  it("names this process's own files by pid and start time, and another restore() on the folder keeps them", async () => {
    const folder = await mkdtemp(join(dir, 'own-'));
    const files = new SoapFolder(folder).forResponse();
    const sink = files.sink({ name: 'fileContent' } as FieldDescriptor, { fileID: 'F1' });
    sink.write(Buffer.from('some'));
    const [part] = await readdir(folder);
    expect(part).toMatch(new RegExp(`^\\.paykit-soap-${identityName(identify(process.pid))}-[0-9a-f-]{36}\\.part$`));
    new SoapFolder(folder).restore();
    expect(await readdir(folder)).toEqual([part]);
    files.discard();
    await files.released();
    expect(await readdir(folder)).toEqual([]);
  });
});
