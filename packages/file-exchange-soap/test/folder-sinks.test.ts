import { createHash } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoapFolder } from '../src/folder-sinks.js';
import type { FieldDescriptor } from '../src/generated/contract.js';

// The files of a response written past the size at which the folder starts writing a file back to disk early (a
// second descriptor of its own, synced beside the download): the content is whole, and no descriptor outlives it.

const MiB = 1024 * 1024;
const field = { name: 'fileContent' } as FieldDescriptor;
/** More than the early write-back's step (32 MiB), in pieces as the decoder gives them. */
const pieces = Array.from({ length: 40 }, (_, i) => Buffer.alloc(MiB, i));
const expectedHash = pieces.reduce((hash, piece) => hash.update(piece), createHash('sha256')).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-folder-sinks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The paths this process holds open under `folder` (Linux: /proc/self/fd; a renamed file shows its new name). */
function openUnder(folder: string): string[] {
  const paths: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${folder}/`)) paths.push(target);
    } catch {
      // Closed since it was listed.
    }
  }
  return paths;
}

describe.skipIf(process.platform !== 'linux')('a file larger than the early write-back step', () => {
  it('is committed whole, and no descriptor of it stays open', async () => {
    const folder = await mkdtemp(join(dir, 'commit-'));
    const files = new SoapFolder(folder).forResponse();
    const file: Record<string, unknown> = { fileID: 'F1', fileName: 'big.bin' };
    const sink = files.sink(field, file);
    for (const piece of pieces) sink.write(piece);
    // Written and not yet ended: its descriptors are open (the precondition of what follows).
    expect(openUnder(folder).length).toBeGreaterThan(0);
    file.fileContent = sink.end();
    files.complete({ name: 'file' } as FieldDescriptor, file);
    const [saved] = files.committed;
    expect(saved).toMatchObject({ fileID: 'F1', fileName: 'big.bin', size: 40 * MiB });
    expect(createHash('sha256').update(await readFile(saved!.path)).digest('hex')).toBe(expectedHash);
    // The early write-back's descriptor closes once its sync under way (if any) is over.
    await files.released();
    expect(openUnder(folder)).toEqual([]);
  });

  it('is removed by discard part way, and no descriptor of it stays open', async () => {
    const folder = await mkdtemp(join(dir, 'discard-'));
    const files = new SoapFolder(folder).forResponse();
    const sink = files.sink(field, { fileID: 'F2' });
    for (const piece of pieces) sink.write(piece);
    expect((await readdir(folder)).filter((name) => name.endsWith('.part'))).toHaveLength(1);
    expect(openUnder(folder).length).toBeGreaterThan(0);
    files.discard();
    expect(await readdir(folder)).toEqual([]);
    await files.released();
    expect(openUnder(folder)).toEqual([]);
  });
});
