import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileHolds, LedgerIndex } from './ledger-index.js';
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

/**
 * @deprecated The default ledger of earlier versions, relative to the working folder: a run from another folder
 * used another ledger and lock, and handled every file again. The default is now `defaultLedgerPathFor(baseUrl)`; a
 * file at this path in the working folder is still read (never written) by the default ledger.
 */
export const defaultLedgerPath = join('.paykit', 'file-exchange-processed.txt');

/**
 * The default ledger of a service for this user: `$XDG_STATE_HOME/paykit/file-exchange/<service>/processed.txt`
 * (`~/.local/state` without XDG_STATE_HOME), `<service>` the host and port of `baseUrl` and a short hash of the whole
 * address. So every run for that service and user shares one ledger, and one run lock (`<ledger>.lock`), whatever
 * its working folder. `env` is the environment to read (HOME, XDG_STATE_HOME): the process's by default.
 */
export function defaultLedgerPathFor(baseUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const url = new URL(baseUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const service = `${url.hostname.replace(/[^\w.-]/g, '_')}_${port}-${createHash('sha256').update(url.href).digest('hex').slice(0, 8)}`;
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'paykit', 'file-exchange', service, 'processed.txt');
}

export interface FileLedgerOptions {
  /** Older ledgers whose names count as processed too; read, never written (the ledger at `defaultLedgerPath`). */
  alsoRead?: string[];
}

/**
 * A ledger kept as a text file of names, one per line, appended and flushed to disk on every record. The names are
 * held as hashes (see LedgerIndex), each hit confirmed against the file: a million names take 8 MiB, not hundreds.
 */
export class FileLedger implements ProcessedFileLedger {
  readonly path: string;
  private readonly sources: string[];
  private index: LedgerIndex | undefined;
  /** Names recorded by this object (the index is of the files as they were read). */
  private readonly recorded = new Set<string>();

  constructor(path: string = defaultLedgerPath, options: FileLedgerOptions = {}) {
    this.path = path;
    this.sources = [path, ...(options.alsoRead ?? []).filter((other) => resolve(other) !== resolve(path))];
  }

  async has(name: string): Promise<boolean> {
    if (this.recorded.has(name)) return true;
    const index = await this.load();
    if (!index.mayHold(name)) return false;
    return fileHolds(this.sources, name).catch((error: unknown) => {
      throw ledgerError(this.path, 'read', error);
    });
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
    if (await this.has(name)) return;
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
    this.recorded.add(name);
  }

  private async load(): Promise<LedgerIndex> {
    this.index ??= await LedgerIndex.read(this.sources).catch((error: unknown) => {
      throw ledgerError(this.path, 'read', error);
    });
    return this.index;
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
