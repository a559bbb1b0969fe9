import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReceivedFile } from '../process-all.js';

/**
 * Copies a received file into `folder` under its own name, through a temporary name and a rename, so the folder
 * never shows a half-written file. A file of the same name is replaced: names are unique per file on the service,
 * so it can only be this file saved by an earlier run that stopped before deleting it.
 */
export async function saveToFolder(folder: string, file: ReceivedFile): Promise<void> {
  await mkdir(folder, { recursive: true });
  const target = join(folder, file.name);
  const partial = `${target}.partial`;
  try {
    await copyFile(file.path, partial);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
