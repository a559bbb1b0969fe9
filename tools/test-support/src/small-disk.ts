import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small file system made by the test itself (a tmpfs), to fill a disk for real. Mounting needs root, which CI has:
 * without it the tests that need one are skipped outside CI (`smallDiskAvailable`), and fail in CI, so that they
 * never pass unseen.
 */
export const smallDiskAvailable = process.getuid?.() === 0 || process.env.CI === 'true';
export const smallDiskNote = 'on a tmpfs the test mounts (root; skipped without it outside CI)';

/** Mounts a tmpfs of `sizeMiB` on a fresh folder for the length of `body`, then unmounts and removes it. */
export async function withSmallDisk<T>(sizeMiB: number, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0700`, 'tmpfs', dir]);
  try {
    return await body(dir);
  } finally {
    execFileSync('umount', ['-l', dir]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Gives the small disk more room (what an operator does once a full disk was reported). */
export function resizeSmallDisk(dir: string, sizeMiB: number): void {
  execFileSync('mount', ['-o', `remount,size=${sizeMiB}m`, dir]);
}
