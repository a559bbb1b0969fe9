import { open } from 'node:fs/promises';

/**
 * The names of a ledger file as 53-bit hashes in one sorted Float64Array, not as strings: a ledger of a million
 * names (five years at 500 files a day) is 8 MiB of memory instead of a Set of a million strings (a run then peaked
 * at 235 MiB). A hash says "maybe there"; the caller confirms a hit against the file itself (`fileHolds`), so that a
 * collision can never make a file pass for processed. Lines are read as bytes and hashed as they are scanned: no
 * string is made per line.
 */
export class LedgerIndex {
  private constructor(private readonly hashes: Float64Array) {}

  /** Reads every line of `paths` (a missing file is empty), a `\r` before the `\n` and empty lines aside. */
  static async read(paths: string[]): Promise<LedgerIndex> {
    let hashes = new Float64Array(1024);
    let count = 0;
    for (const path of paths) {
      await forEachLine(path, (bytes, start, end) => {
        if (count === hashes.length) {
          const grown = new Float64Array(hashes.length * 2);
          grown.set(hashes);
          hashes = grown;
        }
        hashes[count++] = hashBytes(bytes, start, end);
      });
    }
    return new LedgerIndex(hashes.subarray(0, count).sort());
  }

  /** Whether a line of the files may be `name` (false is certain, true needs confirming). */
  mayHold(name: string): boolean {
    const wanted = hashOf(name);
    let low = 0;
    let high = this.hashes.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.hashes[middle]!;
      if (value === wanted) return true;
      if (value < wanted) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

/** Whether one of `paths` has a line that is exactly `name` (a scan of the files, for a hit of the index). */
export async function fileHolds(paths: string[], name: string): Promise<boolean> {
  const wanted = Buffer.from(name);
  for (const path of paths) {
    let found = false;
    await forEachLine(path, (bytes, start, end) => {
      if (!found && end - start === wanted.length && wanted.equals(bytes.subarray(start, end))) found = true;
    });
    if (found) return true;
  }
  return false;
}

export function hashOf(name: string): number {
  const bytes = Buffer.from(name);
  return hashBytes(bytes, 0, bytes.length);
}

/** cyrb53: a 53-bit hash of bytes, good enough to keep collisions rare in a million names (hits are confirmed). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    h1 = Math.imul(h1 ^ byte, 2654435761);
    h2 = Math.imul(h2 ^ byte, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const chunkBytes = 1024 * 1024;

/**
 * Calls `line` with each line of the file (its bytes between `start` and `end` of a buffer valid only during the
 * call), a trailing `\r` left out, empty lines skipped. A missing file has no lines; other failures are thrown.
 */
async function forEachLine(path: string, line: (bytes: Buffer, start: number, end: number) => void): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    let buffer = Buffer.allocUnsafe(chunkBytes);
    let kept = 0;
    for (;;) {
      if (kept === buffer.length) {
        // A line longer than the buffer: make room for it.
        const grown = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(grown, 0, 0, kept);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, kept, buffer.length - kept, null);
      const filled = kept + bytesRead;
      let start = 0;
      for (let newline = buffer.indexOf(10, start); newline !== -1 && newline < filled; newline = buffer.indexOf(10, start)) {
        emit(buffer, start, newline, line);
        start = newline + 1;
      }
      if (bytesRead === 0) {
        emit(buffer, start, filled, line);
        return;
      }
      kept = filled - start;
      buffer.copy(buffer, 0, start, filled);
    }
  } finally {
    await handle.close();
  }
}

function emit(buffer: Buffer, start: number, end: number, line: (bytes: Buffer, start: number, end: number) => void): void {
  const stop = end > start && buffer[end - 1] === 13 ? end - 1 : end;
  if (stop > start) line(buffer, start, stop);
}
