import { mkdir, writeFile } from 'node:fs/promises';
import { contracts as allContracts, type ContractDefinition } from './contracts.js';
import { loadCurrent, snapshotContents, snapshotPaths } from './load.js';

export interface SnapshotOptions {
  root: string;
  baseDir: string;
  contracts?: readonly ContractDefinition[];
}

/** Records the current contracts as the released ones (called by the release step). Returns the files written. */
export async function writeSnapshots(options: SnapshotOptions): Promise<string[]> {
  const written: string[] = [];
  await mkdir(options.baseDir, { recursive: true });
  for (const contract of options.contracts ?? allContracts) {
    const current = await loadCurrent(contract, options.root);
    if (!current) continue;
    const paths = snapshotPaths(contract, options.baseDir);
    const contents = snapshotContents(current);
    for (const [i, path] of paths.entries()) {
      await writeFile(path, contents[i]!);
      written.push(path);
    }
  }
  return written;
}
