/**
 * SOAP download of one 50 MiB file over client-certificate TLS on loopback: peak memory of the downloading process
 * as a multiple of the payload, for this package's streaming client and, side by side in the same run, for
 * node-soap's client. Each download runs in its own process; the mock runs in this one. Then one file of 1.5 GiB
 * downloaded to a folder (`downloadAllToFolder`), served by a streaming server (node-soap's mock cannot build a
 * response that large): its peak RSS, which must stay under 128 MiB whatever the size.
 *
 *   pnpm --filter @paykit/file-exchange-soap bench:memory   (PAYKIT_BENCH_MIB=50, PAYKIT_BENCH_ROUNDS=3, PAYKIT_BENCH_FOLDER_MIB=1536)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateTestCertificates, startFileExchangeMock } from '@paykit/mock-server';
import { startHostileServer } from '../test/support/hostile-server.js';
import { emptySoapResponse, streamedSoapFile } from '../test/support/streamed-soap-file.js';
import type { ChildInput, DownloadMeasurement } from './measure.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;
const payloadBytes = Number(process.env.PAYKIT_BENCH_MIB ?? 50) * MiB;
const rounds = Number(process.env.PAYKIT_BENCH_ROUNDS ?? 3);
const folderPayloadMiB = Number(process.env.PAYKIT_BENCH_FOLDER_MIB ?? 1536);
const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const children = [here('download-with-paykit.ts'), here('download-with-node-soap.ts')];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const dir = await mkdtemp(join(tmpdir(), 'paykit-soap-bench-'));
const certificates = await generateTestCertificates(join(dir, 'certs'));
// The size limit is above the payload, so that the file comes in one response and then an empty one ends the loop.
const mock = await startFileExchangeMock({ certificates, soapMaxResponseBytes: payloadBytes + MiB });
try {
  const payload = randomBytes(payloadBytes);
  const input: ChildInput = {
    soapUrl: mock.soapUrl,
    queueId: mock.queueId,
    pfxPath: certificates.clientPfxPath,
    pfxPassword: certificates.clientPfxPassword,
    caPath: certificates.caCertPath,
    wsdlPath: here('../wsdl/FileExchange.wsdl'),
  };
  const results = new Map<string, DownloadMeasurement[]>();
  for (let round = 0; round < rounds; round++) {
    // Alternate the clients so that neither always runs on a warmer machine.
    for (const child of round % 2 === 0 ? children : [...children].reverse()) {
      mock.store.enqueueDownload({ fileName: `bench_${round}.bin`, content: payload, mimeType: 'application/octet-stream' });
      const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', child], {
        env: { ...process.env, PAYKIT_BENCH_INPUT: JSON.stringify(input) },
        maxBuffer: 1024 * 1024,
      });
      const measurement = JSON.parse(stdout.trim().split('\n').at(-1)!) as DownloadMeasurement;
      if (measurement.receivedBytes !== payloadBytes) throw new Error(`${measurement.client} received ${measurement.receivedBytes} bytes, expected ${payloadBytes}`);
      results.set(measurement.client, [...(results.get(measurement.client) ?? []), measurement]);
    }
  }

  console.log(`SOAP download of one ${payloadBytes / MiB} MiB file over client-certificate TLS on loopback (median of ${rounds} runs each)`);
  console.log('client                         time      peak RSS   growth over baseline   growth / payload');
  const summary = new Map<string, { ms: number; growth: number }>();
  for (const [client, runs] of results) {
    const ms = median(runs.map((r) => r.elapsedMs));
    const peak = median(runs.map((r) => r.peakRssBytes));
    const growth = median(runs.map((r) => r.peakRssBytes - r.baselineRssBytes));
    summary.set(client, { ms, growth });
    console.log(
      `${client.padEnd(30)} ${(ms / 1000).toFixed(2).padStart(5)} s  ${(peak / MiB).toFixed(0).padStart(5)} MiB  ${(growth / MiB).toFixed(0).padStart(10)} MiB            ${(growth / payloadBytes).toFixed(2).padStart(5)}x`,
    );
  }
  const ours = summary.get('@paykit/file-exchange-soap')!;
  const theirs = summary.get('node-soap 1.13 client')!;
  console.log(`node-soap / paykit: memory growth ${(theirs.growth / ours.growth).toFixed(2)}x, time ${(theirs.ms / ours.ms).toFixed(2)}x`);

  // The folder row: a file too large to hold, streamed to disk.
  const streaming = await startHostileServer(certificates);
  const folder = join(dir, 'folder');
  await mkdir(folder);
  try {
    const block = randomBytes(3 * 64 * 1024);
    const repeats = Math.round((folderPayloadMiB * MiB) / block.length);
    streaming.next(streamedSoapFile('bench_big.bin', block, repeats), emptySoapResponse);
    const { stdout } = await run(process.execPath, ['--expose-gc', here('download-to-folder-with-paykit.mjs')], {
      env: { ...process.env, PAYKIT_BENCH_INPUT: JSON.stringify({ ...input, soapUrl: streaming.soapUrl, queueId: 'Q1', folder }) },
      maxBuffer: 1024 * 1024,
    });
    const folderRun = JSON.parse(stdout.trim().split('\n').at(-1)!) as DownloadMeasurement;
    if (folderRun.receivedBytes !== block.length * repeats) throw new Error(`received ${folderRun.receivedBytes} bytes, expected ${block.length * repeats}`);
    const growth = folderRun.peakRssBytes - folderRun.baselineRssBytes;
    console.log('');
    console.log(`SOAP download of one ${(folderRun.receivedBytes / MiB).toFixed(0)} MiB file to a folder (downloadAllToFolder, plain node on dist/)`);
    console.log('client                                   time      peak RSS   growth over baseline   growth / payload');
    console.log(
      `${folderRun.client.padEnd(40)} ${(folderRun.elapsedMs / 1000).toFixed(2).padStart(6)} s  ${(folderRun.peakRssBytes / MiB).toFixed(0).padStart(5)} MiB  ${(growth / MiB).toFixed(0).padStart(10)} MiB            ${(growth / folderRun.receivedBytes).toFixed(3).padStart(6)}x`,
    );
    console.log(`peak RSS ${(folderRun.peakRssBytes / MiB).toFixed(0)} MiB for ${(folderRun.receivedBytes / MiB).toFixed(0)} MiB: ${folderRun.peakRssBytes < 128 * MiB ? 'under' : 'OVER'} the 128 MiB target; in-memory client above: ${(ours.growth / payloadBytes).toFixed(2)}x its payload`);
  } finally {
    await streaming.close();
  }
} finally {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
}
