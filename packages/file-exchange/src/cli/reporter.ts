import type { TransferProgress } from '../transfer-options.js';
import type { RetryEvent } from '../retry-policy.js';
import { printableName, printableText } from './printable.js';

/** Where the CLI writes what it says; `isTTY` decides whether live progress is drawn. */
export interface ReporterStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Redraws of the progress line at most this often: a terminal needs no more, and each costs a write. */
const redrawMs = 250;

/**
 * Without a terminal, a line at least this often (`--log-interval`): a log that stays silent longer than a minute
 * cannot be told from a hung job.
 */
export const defaultLogIntervalMs = 30_000;

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
 * Everything the CLI says on standard error, every line escaped (printableText). Messages and retry lines are plain
 * lines. On a terminal, live progress (file, bytes, rate) is a line redrawn in place. Without one (cron, a log file),
 * what is going on (a transfer's progress, a retry wait, a processing command) is written as a line whenever nothing
 * was written for `logIntervalMs`. `quiet` keeps errors only.
 */
/** How a log (standard error not a terminal) is written: lines of text with their time, or one JSON object a line. */
export type LogFormat = 'text' | 'json';

export class Reporter {
  private progressShown = false;
  private lastDraw = 0;
  private lastLine: number;
  private transfer: { key: string; started: number } | undefined;
  private activity: { text: string; since: number } | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The start line of a log, written only before the first other line: a run with nothing to do writes nothing. */
  private startLine: string | undefined;

  constructor(
    private readonly stderr: ReporterStream,
    private readonly quiet: boolean,
    private readonly logIntervalMs: number = defaultLogIntervalMs,
    private readonly now: () => number = Date.now,
    private readonly format: LogFormat = 'text',
  ) {
    this.lastLine = now();
  }

  /** Whether this run writes a log rather than a terminal display: standard error is not a terminal, and not --quiet. */
  get logs(): boolean {
    return !this.quiet && this.stderr.isTTY !== true;
  }

  /**
   * Says that a run starts (in a log, with the first line the run writes: cron mails whatever a job writes, and a run
   * with nothing to do should write nothing) and keeps the log from going silent until stop().
   */
  start(text: string): void {
    if (!this.logs) return;
    this.startLine = text;
    this.scheduleHeartbeat();
  }

  /** A warning the user must see (a certificate about to expire), even with --quiet. */
  warn(text: string): void {
    this.line(text, 'warning');
  }

  stop(): void {
    clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** What the run is doing now, for the log's periodic line (undefined: between steps). */
  doing(text: string | undefined): void {
    this.activity = text === undefined ? undefined : { text, since: this.now() };
  }

  /** A line of information ("uploaded …"); not with --quiet. */
  info(text: string): void {
    if (!this.quiet) this.line(text);
  }

  /** A failure the user must see, always. */
  error(text: string): void {
    this.line(text, 'error');
  }

  /** What failed and when the next try is: a retry wait can last minutes, so this is said even without a terminal. */
  retry(event: RetryEvent): void {
    if (this.quiet) return;
    this.line(
      `${event.failure.message} Try ${event.attempt} failed; next try at ${clockTime(event.nextAttemptAt)} ` +
        `(in ${duration(event.waitMs)}), retrying until ${clockTime(event.giveUpAt)}.`,
      'retry',
    );
    const subject = event.fileName === undefined ? event.operation : `${event.operation} ${printableName(event.fileName)}`;
    this.doing(`waiting to try ${subject} again at ${clockTime(event.nextAttemptAt)} (try ${event.attempt + 1})`);
    this.transfer = undefined;
  }

  /** Whether progress is wanted: drawn on a terminal, or written now and then to a log. */
  get wantsProgress(): boolean {
    return !this.quiet;
  }

  /** Progress of one transfer: drawn live on a terminal; in a log, the text of the next periodic line. */
  progress(progress: TransferProgress): void {
    if (this.quiet) return;
    const now = this.now();
    const key = `${progress.operation} ${progress.fileName}`;
    if (this.transfer?.key !== key || progress.bytes === 0) this.transfer = { key, started: now };
    const seconds = (now - this.transfer.started) / 1000;
    const rate = seconds > 0 ? `, ${formatBytes(progress.bytes / seconds)}/s` : '';
    const of = progress.totalBytes === undefined ? '' : ` of ${formatBytes(progress.totalBytes)}`;
    const verb = progress.operation === 'uploadFile' ? 'uploading' : 'downloading';
    const text = `${verb} ${printableName(progress.fileName)}: ${formatBytes(progress.bytes)}${of}${rate}`;
    if (this.stderr.isTTY !== true) {
      this.activity = { text, since: this.transfer.started };
      return;
    }
    const finished = progress.totalBytes !== undefined && progress.bytes >= progress.totalBytes;
    // The first piece and the last are always drawn; those between, at most every redrawMs.
    if (this.progressShown && !finished && now - this.lastDraw < redrawMs) return;
    this.lastDraw = now;
    this.stderr.write(`\r\x1b[K${text}`);
    this.progressShown = true;
  }

  private scheduleHeartbeat(): void {
    const due = Math.max(0, this.lastLine + this.logIntervalMs - this.now());
    this.heartbeat = setTimeout(() => {
      if (this.now() - this.lastLine >= this.logIntervalMs) this.line(this.status());
      this.scheduleHeartbeat();
    }, due);
    // The run's own work keeps the process alive; this timer must not.
    this.heartbeat.unref();
  }

  private status(): string {
    if (this.activity === undefined) return 'still working';
    return `${this.activity.text} (${duration(this.now() - this.activity.since)} so far)`;
  }

  private line(text: string, level: 'info' | 'warning' | 'error' | 'retry' = 'info'): void {
    if (this.startLine !== undefined) {
      const start = this.startLine;
      this.startLine = undefined;
      this.line(start);
    }
    const now = this.now();
    const log = this.stderr.isTTY !== true;
    if (log && this.format === 'json') {
      // One object a line, for log collectors: the text as it would be printed (escaped), with its time and level.
      this.stderr.write(`${JSON.stringify({ time: new Date(now).toISOString(), level, message: printableText(text) })}\n`);
    } else {
      // A log line starts with its date and time (UTC, ISO 8601); a terminal's does not need it.
      const stamp = log ? `${new Date(now).toISOString().replace(/\.\d+Z$/, 'Z')} ` : '';
      // A line replaces the progress line being drawn; the next progress update draws it again below.
      this.stderr.write(`${this.progressShown ? '\r\x1b[K' : ''}${stamp}paykit-files: ${printableText(text)}\n`);
    }
    this.progressShown = false;
    this.lastLine = now;
  }
}
