import { copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReceivedFile } from '../process-all.js';
import { forgetTemporary, recordTemporary, temporaryName } from '../temporary-files.js';

/**
 * Puts a received file into `folder` under its own name, through a temporary name (which no service file can have)
 * and a rename, so the folder never shows a half-written file. A file of the same name is replaced: names are unique
 * per file on the service, so it can only be this file saved by an earlier run that stopped before deleting it.
 * With `link`, the saved file is a hard link to the downloaded one where the file system allows (no data copied):
 * only when nothing else (a processing command) is handed the downloaded file, which it could change in place.
 */
export async function saveToFolder(folder: string, file: ReceivedFile, options: { link: boolean }): Promise<void> {
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, temporaryName('saving'));
  recordTemporary(temporary);
  try {
    if (options.link) await link(file.path, temporary).catch(() => copyFile(file.path, temporary));
    else await copyFile(file.path, temporary);
    await rename(temporary, join(folder, file.name));
    forgetTemporary(temporary);
  } catch (error) {
    await rm(temporary, { force: true });
    forgetTemporary(temporary);
    throw error;
  }
}
