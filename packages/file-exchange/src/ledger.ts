import { mkdir, open, readFile } from 'node:fs/promises';
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
