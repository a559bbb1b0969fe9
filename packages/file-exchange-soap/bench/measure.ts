import { readFileSync, writeFileSync } from 'node:fs';

/** What one download child reports to the bench, as one JSON line on stdout. */
export interface DownloadMeasurement {
  client: string;
  /** Resident set size just before the download, after a garbage collection. */
  baselineRssBytes: number;
  /** Highest resident set size of the process, read after the download. */
  peakRssBytes: number;
  elapsedMs: number;
  receivedBytes: number;
}

export interface ChildInput {
  soapUrl: string;
  queueId: string;
  pfxPath: string;
  pfxPassword: string;
  caPath: string;
  wsdlPath: string;
}

export function readChildInput(): ChildInput {
  return JSON.parse(process.env.PAYKIT_BENCH_INPUT ?? '') as ChildInput;
}

/**
 * The highest resident set size since `resetPeak`: Linux's VmHWM. Not `ru_maxrss` alone: a process started from a
 * large one (a test runner holding the file it just wrote) inherits that one's high-water mark across exec, which
 * once made a 160 MiB upload look like it held the file.
 */
function peakRss(): number {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // Not Linux: ru_maxrss below.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** Starts the high-water mark again from the current size (Linux: `5` written to /proc/self/clear_refs). */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Where it cannot be reset, the peak is the process's since its start.
  }
}

/** Runs `download` between two memory readings and prints the measurement. */
export async function measure(client: string, download: () => Promise<number>): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  resetPeak();
  const baselineRssBytes = process.memoryUsage.rss();
  const started = performance.now();
  const receivedBytes = await download();
  const elapsedMs = performance.now() - started;
  const peakRssBytes = peakRss();
  const result: DownloadMeasurement = { client, baselineRssBytes, peakRssBytes, elapsedMs, receivedBytes };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
