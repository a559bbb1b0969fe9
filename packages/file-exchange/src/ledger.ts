import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LocalFileError } from './errors.js';

/**
 * Remembers which downloaded files were processed, so that a file whose delete did not happen (crash, network
 * error) is deleted on the next run without being processed twice. Names are unique per file on the service.
 */
export interface ProcessedFileLedger {
  has(name: string): Promise<boolean>;
  /** Must be durable when it resolves: the file is deleted from the service right after. */
  record(name: string): Promise<void>;
  /**
   * Optional: remembers that a file could not be saved for want of space (and how many bytes it needs), so that a
   * later run checks the free space before it spends another of the downloads the service allows per file.
   * `FileLedger` keeps these beside its file; without them, every run downloads the file again until the service
   * refuses it for good (429).
   */
  noteLocalFailure?(name: string, failure: LocalFailure): Promise<void>;
  /** The local failure noted for `name`, if any. */
  localFailure?(name: string): Promise<LocalFailure | undefined>;
  /** Forgets it (the file was saved since). */
  clearLocalFailure?(name: string): Promise<void>;
}

/** A file that could not be saved locally: a full disk, and the bytes the file needs when known. */
export interface LocalFailure {
  code: string;
  neededBytes?: number | undefined;
  /** When it was noted (ISO 8601). */
  at: string;
}

/** Default ledger location, relative to the working folder. */
export const defaultLedgerPath = join('.paykit', 'file-exchange-processed.txt');

/** A ledger kept as a text file of names, one per line, appended and flushed to disk on every record. */
export class FileLedger implements ProcessedFileLedger {
  readonly path: string;
  private names: Set<string> | undefined;

  constructor(path: string = defaultLedgerPath) {
    this.path = path;
  }

  async has(name: string): Promise<boolean> {
    return (await this.load()).has(name);
  }

  /** Where the files that could not be saved for want of space are noted (`<ledger>.local-failures.json`). */
  get localFailuresPath(): string {
    return `${this.path}.local-failures.json`;
  }

  async noteLocalFailure(name: string, failure: LocalFailure): Promise<void> {
    const failures = await this.loadLocalFailures();
    failures[name] = failure;
    await this.saveLocalFailures(failures);
  }

  async localFailure(name: string): Promise<LocalFailure | undefined> {
    return (await this.loadLocalFailures())[name];
  }

  async clearLocalFailure(name: string): Promise<void> {
    const failures = await this.loadLocalFailures();
    if (!(name in failures)) return;
    delete failures[name];
    await this.saveLocalFailures(failures);
  }

  private localFailures: Record<string, LocalFailure> | undefined;

  private async loadLocalFailures(): Promise<Record<string, LocalFailure>> {
    if (this.localFailures) return this.localFailures;
    const text = await readFile(this.localFailuresPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{}';
      throw ledgerError(this.localFailuresPath, 'read', error);
    });
    try {
      this.localFailures = JSON.parse(text) as Record<string, LocalFailure>;
    } catch {
      // A note cut short by a crash: it only spares downloads, so start again without it.
      this.localFailures = {};
    }
    return this.localFailures;
  }

  /** Written whole to a temporary file, then renamed over the old one: a crash leaves the old notes or the new. */
  private async saveLocalFailures(failures: Record<string, LocalFailure>): Promise<void> {
    const temporary = `${this.localFailuresPath}.${process.pid}.tmp`;
    try {
      await mkdir(dirname(this.path), { recursive: true });
      if (Object.keys(failures).length === 0) {
        await rm(this.localFailuresPath, { force: true });
        return;
      }
      await writeFile(temporary, JSON.stringify(failures), { mode: 0o600 });
      await rename(temporary, this.localFailuresPath);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      // Full disk is what these notes are about: failing to note it must not stop the run.
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw ledgerError(this.localFailuresPath, 'written', error);
    }
  }

  async record(name: string): Promise<void> {
    if (/[\r\n]/.test(name)) throw new Error(`A ledger entry cannot contain a line break: ${JSON.stringify(name)}`);
    const names = await this.load();
    if (names.has(name)) return;
    try {
      await mkdir(dirname(this.path), { recursive: true });
      const handle = await open(this.path, 'a', 0o600);
      try {
        await handle.appendFile(`${name}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw ledgerError(this.path, 'written', error, name);
    }
    names.add(name);
  }

  private async load(): Promise<Set<string>> {
    if (this.names) return this.names;
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw ledgerError(this.path, 'read', error);
    });
    this.names = new Set(text.split('\n').map((line) => line.replace(/\r$/, '')).filter(Boolean));
    return this.names;
  }
}

/**
 * The ledger's own failures name the ledger: a run cannot go on safely without it (a file could be handed over
 * twice), and the system error alone would not say which file to fix.
 */
function ledgerError(path: string, action: 'read' | 'written', error: unknown, fileName?: string): LocalFileError {
  const code = (error as NodeJS.ErrnoException).code;
  return new LocalFileError(`The ledger of processed files ${path} cannot be ${action} (${code ?? (error as Error).message}).`, {
    path,
    cause: error,
    ...(code === undefined ? {} : { code }),
    ...(fileName === undefined ? {} : { fileName }),
  });
}
