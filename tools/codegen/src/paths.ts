import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the monorepo: every contract and output path is resolved from here, whatever the caller's cwd. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
