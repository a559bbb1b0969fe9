import { randomUUID } from 'node:crypto';
import { close, closeSync, fdatasync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FileLedger } from '@paykit/file-exchange';
import { localFileError } from '@paykit/file-exchange/core';
import { identify, identityName, isRunning, parseIdentityName, type ProcessIdentity } from '@paykit/process-liveness';
import type { ByteSink } from './codec/base64-decoder.js';
import type { FieldDescriptor } from './generated/contract.js';
import type { DownloadedFile } from './generated/types.js';

/** A received file written to disk by `downloadAllToFolder`: complete and synced at `path`, `size` bytes. */
export type SavedFile = Omit<DownloadedFile, 'fileContent'> & { path: string; size: number };

/** Where one received file's content was written (the value of its `fileContent` while a response is read). */
export interface SavedContent {
  path: string;
  size: number;
}

/** What a sidecar holds: the file's fields, where its content is, and (while it is being put in place) where it was. */
interface Sidecar extends SavedFile {
  partPath: string;
  committedAt: string;
}

const prefix = '.paykit-soap-';
const ledgerName = `${prefix}processed-ids.txt`;

/**
 * A file being written names the process writing it, by pid and start time (`.paykit-soap-<pid>-<start>-<uuid>`), so
 * that a pid reused by another process after a crash does not keep a dead run's `.part` file. Earlier builds named
 * the pid alone (`.paykit-soap-<pid>-<uuid>`): such a file, left by a run killed before an upgrade, is judged by its
 * pid. The whole uuid, at the end, tells the two forms apart.
 */
const uuidPattern = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const writerOf = new RegExp(`^\\.paykit-soap-(\\d+(?:-\\d*)?)-${uuidPattern}\\.(?:part|json\\.tmp)$`);

/** This process, as its files name it; read once (its start time does not change). */
let self: ProcessIdentity | undefined;
const writerName = () => identityName((self ??= identify(process.pid)));

/** Whether the process that wrote a `.part` (or `.json.tmp`) file still runs; false for a name not of that form. */
function writerRuns(name: string): boolean {
  const writer = parseIdentityName(writerOf.exec(name)?.[1] ?? '');
  return writer !== undefined && isRunning(writer);
}

/**
 * The files `downloadAllToFolder` writes into one folder, and what survives a crash or a full disk there.
 *
 * Each file's content goes, as it is decoded, to `.paykit-soap-<pid>-<start>-<uuid>.part` (this user only) with
 * synchronous writes of at most one decoded piece, so memory stays bounded whatever the file size. As soon as its
 * `file` element is complete (the rest of the response may still be arriving), the content is synced, a sidecar
 * `.paykit-soap-<pid>-<start>-<uuid>.json` with its fields (`fileID`, `fileName`, `mimeType`, `fileType`,
 * `parameter`) is written and synced, the content renamed to `paykit-soap-<uuid>`, and the folder synced: a committed
 * file has its content and its name on disk before the next file is read. The sidecar stays until the caller is done
 * with the file (the loop asked for the next one, its fileID recorded in `.paykit-soap-processed-ids.txt`): a run that
 * was killed, or ended on a full disk, leaves its committed files with their fields, and the next
 * `downloadAllToFolder` on the folder hands them over first. A `.part` of a process no longer running (judged by pid
 * and start time) is removed: it is not complete (the service sends again the files of a download a network error
 * interrupted).
 */
export class SoapFolder {
  /** Committed files not yet acknowledged, by fileID: a copy received again is dropped, the first one kept. */
  private readonly pending = new Map<string, Sidecar & { sidecarPath: string }>();
  /** The fileIDs of files the caller is done with; the default `seen` of downloadAllToFolder. */
  readonly processed: FileLedger;

  constructor(readonly folder: string) {
    this.processed = new FileLedger(join(folder, ledgerName));
  }

  /**
   * The files committed by an earlier run and not acknowledged, oldest first (what a crash or a full disk left): a
   * commit a crash cut short is finished; `.part` files of processes no longer running are removed.
   */
  restore(): SavedFile[] {
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw localFileError({ operation: 'downloadAll' }, this.folder, error);
    }
    const sidecars: Array<Sidecar & { sidecarPath: string }> = [];
    for (const name of names) {
      if (!name.startsWith(prefix) || name === ledgerName) continue;
      const path = join(this.folder, name);
      if (name.endsWith('.json')) {
        try {
          sidecars.push({ ...(JSON.parse(readFileSync(path, 'utf8')) as Sidecar), sidecarPath: path });
        } catch {
          // Unreadable: a sidecar is renamed into place whole, so this is not one of ours; left alone.
        }
      } else if ((name.endsWith('.part') || name.endsWith('.json.tmp')) && !writerRuns(name)) {
        if (!sidecars.some((sidecar) => sidecar.partPath === path)) rmSync(path, { force: true });
      }
    }
    sidecars.sort((a, b) => a.committedAt.localeCompare(b.committedAt) || a.path.localeCompare(b.path));
    const restored: SavedFile[] = [];
    for (const sidecar of sidecars) {
      // Killed between the sidecar and the rename: the content, synced, is still at its .part name.
      this.step(sidecar.path, () => {
        try {
          renameSync(sidecar.partPath, sidecar.path);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      });
      if (this.pending.has(sidecar.fileID)) continue;
      this.pending.set(sidecar.fileID, sidecar);
      restored.push(savedFile(sidecar));
    }
    return restored;
  }

  /** The sinks of one DownloadFiles response. */
  forResponse(): ResponseFiles {
    return new ResponseFiles(this);
  }

  /** The caller is done with `file` (its fileID is recorded): its sidecar goes; its content is the caller's. */
  acknowledge(file: SavedFile): void {
    const pending = this.pending.get(file.fileID);
    if (!pending || pending.path !== file.path) return;
    this.pending.delete(file.fileID);
    this.step(pending.sidecarPath, () => rmSync(pending.sidecarPath, { force: true }));
  }

  /** A copy of a file already processed (sent again by the service): its content and sidecar go. */
  discardDuplicate(file: SavedFile): void {
    const pending = this.pending.get(file.fileID);
    if (pending?.path === file.path) this.pending.delete(file.fileID);
    this.step(file.path, () => {
      rmSync(file.path, { force: true });
      if (pending?.path === file.path) rmSync(pending.sidecarPath, { force: true });
    });
  }

  /** Makes a complete file durable with its fields: sidecar, then content in place, then the folder (see above). */
  commit(file: Record<string, unknown>, content: SavedContent & { partPath: string }): SavedFile {
    const fileID = String(file.fileID);
    const known = this.pending.get(fileID);
    if (known) {
      // Received again (a response resent after a network error): the copy already committed stands.
      this.step(content.partPath, () => rmSync(content.partPath, { force: true }));
      return savedFile(known);
    }
    const { fileContent: _content, ...fields } = file;
    const sidecar: Sidecar = { ...(fields as Omit<DownloadedFile, 'fileContent'>), path: content.path, size: content.size, partPath: content.partPath, committedAt: new Date().toISOString() };
    const sidecarPath = content.partPath.replace(/\.part$/, '.json');
    this.step(sidecarPath, () => {
      const temporary = `${sidecarPath}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        const text = Buffer.from(JSON.stringify(sidecar));
        for (let offset = 0; offset < text.length; ) offset += writeSync(fd, text, offset);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, sidecarPath);
    });
    this.step(content.path, () => renameSync(content.partPath, content.path));
    this.syncFolder();
    this.pending.set(fileID, { ...sidecar, sidecarPath });
    return savedFile(sidecar);
  }

  syncFolder(): void {
    this.step(this.folder, () => {
      const fd = openSync(this.folder, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    });
  }

  step<T>(path: string, step: () => T, what?: string): T {
    try {
      return step();
    } catch (error) {
      throw localFileError({ operation: 'downloadFiles', fileName: what }, path, error);
    }
  }
}

/**
 * The files of one DownloadFiles response: a `.part` per `fileContent`, each file committed as soon as its `file`
 * element is complete. A response that fails part way keeps the files committed before the failure (`committed`);
 * `discard` removes only what was still being written.
 */
export class ResponseFiles {
  private readonly writing: Array<{ partPath: string; fd: number | undefined; writeBack: EarlyWriteBack }> = [];
  /** Committed by this response, in order. */
  readonly committed: SavedFile[] = [];
  /** Each file's early write-back, settled once its descriptor is closed. */
  private readonly writeBacks: Promise<void>[] = [];

  constructor(private readonly folder: SoapFolder) {}

  /** A sink for the `fileContent` of `file` (its fields read so far name it in errors); `end` gives a SavedContent. */
  sink(_field: FieldDescriptor, file: Record<string, unknown>): ByteSink {
    const uuid = randomUUID();
    const partPath = join(this.folder.folder, `${prefix}${writerName()}-${uuid}.part`);
    const path = join(this.folder.folder, `paykit-soap-${uuid}`);
    const what = describeFile(file);
    const fd = this.folder.step(partPath, () => openSync(partPath, 'wx', 0o600), what);
    const entry = { partPath, fd: fd as number | undefined, size: 0, writeBack: new EarlyWriteBack(partPath) };
    this.writing.push(entry);
    this.writeBacks.push(entry.writeBack.released);
    return {
      write: (bytes) => {
        this.folder.step(entry.partPath, () => {
          for (let offset = 0; offset < bytes.length; ) offset += writeSync(entry.fd!, bytes, offset, bytes.length - offset);
        }, what);
        entry.size += bytes.length;
        entry.writeBack.wrote(bytes.length);
      },
      end: (): SavedContent & { partPath: string } => {
        const fd = entry.fd!;
        entry.fd = undefined;
        entry.writeBack.close();
        // Synced before it is committed: "acknowledged means durable", and the service will not send it again.
        this.folder.step(entry.partPath, () => {
          fsyncSync(fd);
          closeSync(fd);
        }, what);
        return { path, size: entry.size, partPath: entry.partPath };
      },
    };
  }

  /** A `file` element is complete: commit it now, before the rest of the response is read. */
  complete(field: FieldDescriptor, value: Record<string, unknown>): void {
    if (field.name !== 'file') return;
    const content = value.fileContent as SavedContent & { partPath: string };
    const saved = this.folder.commit(value, content);
    this.writing.splice(this.writing.findIndex((entry) => entry.partPath === content.partPath), 1);
    this.committed.push(saved);
    value.fileContent = { path: saved.path, size: saved.size };
  }

  /** Settles once no early write-back of this response holds a descriptor (each closes after its sync under way). */
  released(): Promise<void> {
    return Promise.all(this.writeBacks).then(() => undefined);
  }

  /** Removes what was still being written: the files committed stay. */
  discard(): void {
    for (const entry of this.writing.splice(0)) {
      entry.writeBack.close();
      if (entry.fd !== undefined) closeSync(entry.fd);
      rmSync(entry.partPath, { force: true });
    }
  }
}

/** How many bytes of a file are written between two early write-backs (see EarlyWriteBack). */
const EARLY_WRITE_BACK_BYTES = 32 * 1024 * 1024;

/**
 * Gets the disk writing a file's content while the rest of it still arrives, so that the fsync that commits the file
 * (which stays, and alone makes it durable) finds little left to write: a file below the kernel's background
 * write-back threshold (10 % of memory by default: 1 GiB is below it with 24 GiB) is otherwise written back only at
 * that fsync, and the download waited there for all of it (0.42-0.52 s for 1 GiB in CPU profiles). Each
 * time EARLY_WRITE_BACK_BYTES more were written and the one before is done, an fdatasync on a descriptor of its
 * own, on libuv's thread pool beside the download. Nothing waits for it, and its outcome counts for nothing: an
 * error writing the file back is reported again to the commit's fsync (Linux reports it to every descriptor opened
 * before it). Without a descriptor (none left, say), it does nothing.
 */
class EarlyWriteBack {
  private fd: number | undefined;
  private unsynced = 0;
  private inFlight = false;
  private closed = false;
  private onReleased!: () => void;
  /** Settles when its descriptor is closed (at once when it had none). */
  readonly released = new Promise<void>((resolve) => (this.onReleased = resolve));

  constructor(path: string) {
    try {
      this.fd = openSync(path, 'r+');
    } catch {
      this.fd = undefined;
      this.onReleased();
    }
  }

  wrote(bytes: number): void {
    this.unsynced += bytes;
    if (this.fd === undefined || this.inFlight || this.unsynced < EARLY_WRITE_BACK_BYTES) return;
    this.unsynced = 0;
    this.inFlight = true;
    fdatasync(this.fd, () => {
      this.inFlight = false;
      if (this.closed) this.release();
    });
  }

  /** Closes its descriptor, once the write-back under way (if any) is over. */
  close(): void {
    this.closed = true;
    if (!this.inFlight) this.release();
  }

  private release(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) close(fd, () => this.onReleased());
  }
}

function savedFile(sidecar: Sidecar): SavedFile {
  const { partPath: _part, committedAt: _at, sidecarPath: _sidecar, ...file } = sidecar as Sidecar & { sidecarPath?: string };
  return file;
}

/** How an error names a file: its fileID, and its name when it has one. */
function describeFile(file: Record<string, unknown>): string | undefined {
  if (file.fileID === undefined) return undefined;
  return file.fileName === undefined ? `fileID ${String(file.fileID)}` : `${String(file.fileName)} (fileID ${String(file.fileID)})`;
}
