import { statfs } from 'node:fs/promises';

/** Bytes an unprivileged process may still write on the file system of `folder` (undefined where it cannot say). */
export async function freeBytes(folder: string): Promise<number | undefined> {
  try {
    const { bavail, bsize } = await statfs(folder);
    return Number(bavail) * Number(bsize);
  } catch {
    return undefined;
  }
}

/** An ENOSPC error for a file that needs more than the free space: what writing it would end in. */
export function notEnoughSpace(folder: string, needed: number, free: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`not enough space in ${folder}: ${needed} bytes needed, ${free} free`), { code: 'ENOSPC', path: folder });
}
