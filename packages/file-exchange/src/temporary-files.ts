import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { identify, identityName, isGroupRunning, isRunning, parseIdentityName, type ProcessIdentity } from '@paykit/process-liveness';

/**
 * Temporary files and folders of this process. Their names start with `~`, which no service file name may contain,
 * so they never collide with a file the service sends (or one saved by an earlier run), and carry the process's id
 * and start time (`~paykit-<kind>-<pid>-<start>-<random>`), so that a later run can recognise the leftovers of a run
 * that was killed (SIGKILL) and remove them, even once its id has been given to another process. Each is recorded
 * while it exists, so that a signal handler can remove them all synchronously before the process exits.
 */
export type TemporaryKind = 'download' | 'saving' | 'upload';

const live = new Set<string>();
/**
 * The owner of a temporary entry: `<pid>-<start>-` now, `<pid>-` as earlier builds named it (the random part, from
 * mkdtemp or hex, holds no `-`, so the two forms cannot be confused); an entry of the earlier form is judged by its pid.
 */
const leftover = /^~paykit-(?:download|saving|upload)-(\d+(?:-\d*)?)-[^-]+$/;

/** This process as its temporary entries name it; read once (its start time does not change). */
let self: string | undefined;
const owner = () => (self ??= identityName(identify(process.pid)));

/** A name for a temporary entry of this process (not created). */
export function temporaryName(kind: TemporaryKind): string {
  return `~paykit-${kind}-${owner()}-${randomBytes(4).toString('hex')}`;
}

/** Creates a private folder (mode 0700) in `parent`, recorded until `removeTemporary`. */
export async function makeTemporaryFolder(parent: string, kind: TemporaryKind): Promise<string> {
  const path = await mkdtemp(join(parent, `~paykit-${kind}-${owner()}-`));
  live.add(path);
  return path;
}

/** Records a temporary file about to be created, so that a signal removes it. */
export function recordTemporary(path: string): void {
  live.add(path);
}

/** Forgets a temporary entry that became something else (renamed into place). */
export function forgetTemporary(path: string): void {
  live.delete(path);
}

export async function removeTemporary(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
  live.delete(path);
}

/** For signal handlers: removes every temporary entry of this process, synchronously, ignoring failures. */
export function removeAllTemporariesSync(): void {
  for (const path of live) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Nothing more can be done on the way out; the next run removes it.
    }
  }
  live.clear();
}

const groupMarker = /^~group-(\d+-\d*)$/;

/**
 * Records in a temporary folder of this process that a process group started from it (a processing command, in its
 * own group so that it survives this process) reads a file in it: removeStaleTemporaries leaves the folder alone while
 * that group runs, even once this process is gone. Resolves with the function that forgets it.
 */
export async function holdTemporaryFolder(folder: string, leader: ProcessIdentity): Promise<() => Promise<void>> {
  const marker = join(folder, `~group-${identityName(leader)}`);
  await writeFile(marker, '', { mode: 0o600 });
  return () => rm(marker, { force: true });
}

async function isHeldByGroup(folder: string): Promise<boolean> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.some((name) => {
    const leader = parseIdentityName(groupMarker.exec(name)?.[1] ?? '');
    return leader !== undefined && isGroupRunning(leader);
  });
}

/** Beside a file handed to a processing command: its exit status and the file's name, once it has ended. */
export const handledStatusPrefix = '~handled-';

/**
 * Removes the temporary entries in `parent` left by runs of this program that were killed and no longer run (no
 * process with their id and start time runs, and no processing command they started still reads a file in them); an
 * entry of a running process is left alone. Before a folder goes, the files its processing commands finished with exit
 * status 0 (the `~handled-` notes of commands that outlived their run) are told to `handled`, so that they are
 * recorded as processed rather than handed over again. Failures of the tidying itself are ignored.
 */
export async function removeStaleTemporaries(parent: string, handled?: (name: string) => Promise<void>): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const writer = parseIdentityName(leftover.exec(name)?.[1] ?? '');
      if (writer === undefined || isRunning(writer)) return;
      const folder = join(parent, name);
      if (await isHeldByGroup(folder)) return;
      if (handled) {
        for (const note of (await readdir(folder).catch(() => [] as string[])).filter((entry) => entry.startsWith(handledStatusPrefix))) {
          const text = await readFile(join(folder, note), 'utf8').catch(() => '');
          const status = text.slice(0, 3).trim();
          const fileName = text.slice(4).trim();
          // A ledger that cannot be written stops the run (the caller's error), the folder kept for the next one.
          if (status === '0' && fileName) await handled(fileName);
        }
      }
      await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}
