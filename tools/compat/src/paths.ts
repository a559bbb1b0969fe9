import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the monorepo, whatever the caller's working directory. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the released snapshots live unless `--base-dir` says otherwise. */
export const defaultBaseDir = resolve(repoRoot, 'tools/compat/released');
