import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { contracts as allContracts, fromRoot, type Contract } from '@paykit/contracts';
import { loadCurrent, snapshotFiles } from './load.js';

/** Where the released snapshots live unless `--base-dir` says otherwise. */
export const defaultBaseDir = fromRoot('tools/compat/released');

export interface SnapshotOptions {
  root: string;
  baseDir: string;
  contracts?: readonly Contract[];
}

/** Records the current contracts as the released ones (called by the release step). Returns the files written. */
export async function writeSnapshots(options: SnapshotOptions): Promise<string[]> {
  const written: string[] = [];
  await mkdir(options.baseDir, { recursive: true });
  for (const contract of options.contracts ?? allContracts) {
    const current = await loadCurrent(contract, options.root);
    if (!current) continue;
    // A SOAP snapshot is a folder: start it afresh so that a schema the contract no longer imports does not linger.
    if (contract.kind === 'soap') await rm(join(options.baseDir, contract.name), { recursive: true, force: true });
    for (const file of await snapshotFiles(contract, current)) {
      const path = join(options.baseDir, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.content);
      written.push(path);
    }
  }
  return written;
}
