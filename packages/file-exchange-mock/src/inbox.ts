import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_NAME_PATTERN, type FileExchangeStore } from './store.js';

/** Where the inbox puts a file once it is in the download queue (the queue reads it from there). */
export const INBOX_QUEUED = 'queued';
/** Where the inbox puts a file whose name the service would not accept. */
export const INBOX_REFUSED = 'refused';

export type InboxEvent =
  | { kind: 'queued'; fileName: string; path: string }
  | { kind: 'refused'; fileName: string; path: string; reason: string }
  | { kind: 'error'; message: string };

/**
 * A folder whose files join the download queue, for merchants who run the mock as a separate process. A file is
 * taken once two scans in a row find it with the same size and modification time (so that one still being copied
 * is left alone), then moved into `queued/` and queued under its own name. Names starting with a dot are left
 * alone: write a file under such a name (or elsewhere) and rename it when complete.
 */
export class DownloadInbox {
  /** Size and modification time of each file at the previous scan. */
  private readonly lastSeen = new Map<string, string>();
  private scanning: Promise<void> | undefined;
  private stopped = false;

  private constructor(
    readonly dir: string,
    private readonly store: Pick<FileExchangeStore, 'enqueueDownload'>,
    private readonly onEvent: (event: InboxEvent) => void,
  ) {}

  /** Creates the folder and its `queued/` and `refused/` folders if they do not exist. */
  static async open(dir: string, store: Pick<FileExchangeStore, 'enqueueDownload'>, onEvent: (event: InboxEvent) => void = () => {}): Promise<DownloadInbox> {
    await mkdir(join(dir, INBOX_QUEUED), { recursive: true });
    await mkdir(join(dir, INBOX_REFUSED), { recursive: true });
    return new DownloadInbox(dir, store, onEvent);
  }

  /** One pass over the folder; a call during a pass waits for that pass. Nothing happens once stopped. */
  scan(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.scanning ??= this.pass()
      .catch((error: unknown) => this.onEvent({ kind: 'error', message: `inbox ${this.dir}: ${(error as Error).message}` }))
      .finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  /** Ends scanning; resolves once a pass in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.scanning;
  }

  private async pass(): Promise<void> {
    const present = new Set<string>();
    for (const name of await readdir(this.dir)) {
      if (this.stopped) return;
      if (name.startsWith('.')) continue;
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      present.add(name);
      const signature = `${info.size}:${info.mtimeMs}`;
      if (this.lastSeen.get(name) !== signature) {
        this.lastSeen.set(name, signature);
        continue;
      }
      this.lastSeen.delete(name);
      await this.take(name, path);
    }
    for (const name of this.lastSeen.keys()) if (!present.has(name)) this.lastSeen.delete(name);
  }

  private async take(fileName: string, path: string): Promise<void> {
    const valid = FILE_NAME_PATTERN.test(fileName);
    const target = join(this.dir, valid ? INBOX_QUEUED : INBOX_REFUSED, fileName);
    try {
      await rename(path, target);
    } catch {
      return; // removed or renamed meanwhile: nothing to queue
    }
    if (!valid) {
      this.onEvent({ kind: 'refused', fileName, path: target, reason: 'not a file name the service accepts (letters, digits, _, - and . only)' });
      return;
    }
    this.store.enqueueDownload({ fileName, contentFile: target });
    this.onEvent({ kind: 'queued', fileName, path: target });
  }
}
