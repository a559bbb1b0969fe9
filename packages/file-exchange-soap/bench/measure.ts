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

/** Runs `download` between two memory readings and prints the measurement. */
export async function measure(client: string, download: () => Promise<number>): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  const baselineRssBytes = process.memoryUsage.rss();
  const started = performance.now();
  const receivedBytes = await download();
  const elapsedMs = performance.now() - started;
  // ru_maxrss is in KiB on Linux.
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  const result: DownloadMeasurement = { client, baselineRssBytes, peakRssBytes, elapsedMs, receivedBytes };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
