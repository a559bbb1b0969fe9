import type { TransferProgress } from '../transfer-options.js';
import type { RetryEvent } from '../retry-policy.js';
import { printableName } from './printable-name.js';

/** Where the CLI writes what it says; `isTTY` decides whether live progress is drawn. */
export interface ReporterStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Redraws of the progress line at most this often: a terminal needs no more, and each costs a write. */
const redrawMs = 250;

const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function clockTime(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/**
 * Everything the CLI says on standard error. Messages and retry lines are plain lines (retry lines also when standard
 * error is not a terminal, since a wait may last minutes); live progress (file, bytes, rate) is a line redrawn in place,
 * only on a terminal. `quiet` keeps errors only.
 */
export class Reporter {
  private progressShown = false;
  private lastDraw = 0;
  private transfer: { key: string; started: number } | undefined;

  constructor(
    private readonly stderr: ReporterStream,
    private readonly quiet: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** A line of information ("uploaded …"); not with --quiet. */
  info(text: string): void {
    if (!this.quiet) this.line(text);
  }

  /** A failure the user must see, always. */
  error(text: string): void {
    this.line(text);
  }

  /** What failed and when the next try is: a retry wait can last minutes, so this is said even without a terminal. */
  retry(event: RetryEvent): void {
    if (this.quiet) return;
    this.line(
      `${event.failure.message} Try ${event.attempt} failed; next try at ${clockTime(event.nextAttemptAt)} ` +
        `(in ${duration(event.waitMs)}), retrying until ${clockTime(event.giveUpAt)}.`,
    );
    this.transfer = undefined;
  }

  /** Whether progress is drawn (a terminal, not --quiet): when not, nothing need be told about it. */
  get drawsProgress(): boolean {
    return !this.quiet && this.stderr.isTTY === true;
  }

  /** Live progress of one transfer; drawn on a terminal only. */
  progress(progress: TransferProgress): void {
    if (!this.drawsProgress) return;
    const now = this.now();
    const key = `${progress.operation} ${progress.fileName}`;
    if (this.transfer?.key !== key || progress.bytes === 0) this.transfer = { key, started: now };
    const finished = progress.totalBytes !== undefined && progress.bytes >= progress.totalBytes;
    // The first piece and the last are always drawn; those between, at most every redrawMs.
    if (this.progressShown && !finished && now - this.lastDraw < redrawMs) return;
    this.lastDraw = now;
    const seconds = (now - this.transfer.started) / 1000;
    const rate = seconds > 0 ? `, ${formatBytes(progress.bytes / seconds)}/s` : '';
    const of = progress.totalBytes === undefined ? '' : ` of ${formatBytes(progress.totalBytes)}`;
    const verb = progress.operation === 'uploadFile' ? 'uploading' : 'downloading';
    this.stderr.write(`\r\x1b[K${verb} ${printableName(progress.fileName)}: ${formatBytes(progress.bytes)}${of}${rate}`);
    this.progressShown = true;
  }

  private line(text: string): void {
    // A line replaces the progress line being drawn; the next progress update draws it again below.
    this.stderr.write(`${this.progressShown ? '\r\x1b[K' : ''}paykit-files: ${text}\n`);
    this.progressShown = false;
  }
}
