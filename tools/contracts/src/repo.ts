import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the monorepo (this file is at tools/contracts/{src,dist}/): paths in the registry are relative to it. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A registry path made absolute. */
export function fromRoot(path: string): string {
  return resolve(repoRoot, path);
}
