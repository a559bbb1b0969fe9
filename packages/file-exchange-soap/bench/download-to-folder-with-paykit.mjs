// One child process per measurement, run by plain node on the built package (no TypeScript loader in the process),
// so that its peak memory is what a merchant's program downloading to a folder would see.
import { FileExchangeSoapClient } from '../dist/index.js';

const input = JSON.parse(process.env.PAYKIT_BENCH_INPUT ?? '');
const client = await FileExchangeSoapClient.create({
  baseUrl: input.soapUrl,
  tls: { pfx: input.pfxPath, passphrase: input.pfxPassword, ca: input.caPath },
  retry: false,
});
globalThis.gc();
const baselineRssBytes = process.memoryUsage.rss();
const started = performance.now();
let receivedBytes = 0;
for await (const file of client.downloadAllToFolder(input.queueId, input.folder)) receivedBytes += file.size;
const elapsedMs = performance.now() - started;
// ru_maxrss is in KiB on Linux.
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
await client.close();
process.stdout.write(`${JSON.stringify({ client: '@paykit/file-exchange-soap, to a folder', baselineRssBytes, peakRssBytes, elapsedMs, receivedBytes })}\n`);
