// SOAP transfer benchmark: an upload of a 1 GiB file (uploadFile from its path) and a download of a response holding
// one 1 GiB file (downloadAllToFolder), over client-certificate TLS on loopback, beside curl posting the very same
// envelope (`curl -T`, the envelope prepared on disk with the client's own encoder) and saving the very same response
// (`curl -o`). Each contender runs in its own process under /usr/bin/time (wall time, peak memory), the server in
// another; rounds rotate who goes first; the medians and the median of the per-round ratios are printed.
//   pnpm --filter @paykit/file-exchange-soap bench        (BENCH_SIZE_MIB=1024, BENCH_ROUNDS=3 by default; it runs under tsx)
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateTestCertificates } from '@paykit/mock-server';
// The codec is not an entry point of the built package: the bench runs under tsx and takes it from the source.
import { encodeRequest, writeRequest } from '../src/codec/write-request.ts';
import { toReplayableContent } from '@paykit/file-exchange/core';

const run = promisify(execFile);
const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const MiB = 1024 * 1024;
const sizeMiB = Number(process.env.BENCH_SIZE_MIB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const targets = { ratio: 1.5, peakMiB: 128 };
const NS = 'urn:paykit:file-exchange:v1';

async function measure(commandLine, env) {
  const { stderr } = await run('/usr/bin/time', ['-f', 'BENCH %e %U %S %M', 'sh', '-c', commandLine], { env, maxBuffer: 16 * MiB });
  const match = /BENCH ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  if (!match) throw new Error(`no measurement in: ${stderr}`);
  return { seconds: Number(match[1]), userSeconds: Number(match[2]), systemSeconds: Number(match[3]), peakMiB: Number(match[4]) / 1024 };
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** Writes `chunks` to `path` and syncs it, so that its write-back does not fall into the measured runs. */
async function writeAll(path, chunks) {
  const out = createWriteStream(path);
  for await (const chunk of chunks) if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  const handle = await open(path, 'r+');
  await handle.sync();
  await handle.close();
}

async function compare(label, contenders, afterEach) {
  const names = Object.keys(contenders);
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names.map((_, i) => names[(i + round) % names.length])) {
      results[name].push(await contenders[name]());
      await afterEach?.(name);
      await sleep(1000); // the previous run's sockets and file system work settle
    }
  }
  const of = (name, field) => median(results[name].map((r) => r[field]));
  const ratio = median(results.paykit.map((r, i) => r.seconds / results.curl[i].seconds));
  const peak = Math.max(...results.paykit.map((r) => r.peakMiB));
  console.log(
    [
      label.padEnd(22),
      names.map((name) => `${name} ${of(name, 'seconds').toFixed(2)} s, peak ${Math.max(...results[name].map((r) => r.peakMiB)).toFixed(1)} MiB`).join(' | '),
      `time ratio paykit/curl ${ratio.toFixed(2)}x (median of rounds; target <= ${targets.ratio}x)`,
      `paykit peak ${peak.toFixed(1)} MiB (target < ${targets.peakMiB} MiB)`,
      `all rounds ${names.map((name) => `${name} ${results[name].map((r) => r.seconds.toFixed(2)).join('/')} s`).join(', ')}`,
      `cpu user/system ${names.map((name) => `${name} ${of(name, 'userSeconds').toFixed(2)}/${of(name, 'systemSeconds').toFixed(2)} s`).join(', ')}`,
    ].join(' | '),
  );
}

const dir = await mkdtemp(join(tmpdir(), 'paykit-soap-transfer-'));
let server;
try {
  const certs = await generateTestCertificates(join(dir, 'certs'));
  const source = join(dir, 'source.bin');
  const block = randomBytes(MiB);
  await writeAll(source, (function* () {
    for (let i = 0; i < sizeMiB; i++) {
      block.writeUInt32LE(i, 0);
      yield Buffer.from(block);
    }
  })());
  // The envelope the client sends, written by the client's own encoder, for curl to post as it is.
  const uploadEnvelope = join(dir, 'upload.xml');
  const content = await toReplayableContent(source);
  const encoded = encodeRequest(writeRequest('uploadFile', { fileID: 'BENCH-1', fileName: 'bench.bin', fileContent: content }));
  await writeAll(uploadEnvelope, encoded.chunks());
  // The response of one file, as the service would send it.
  const downloadResponse = join(dir, 'download.xml');
  await writeAll(downloadResponse, (async function* () {
    yield Buffer.from(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>BENCH-1</fileID><fileName>bench.bin</fileName><fileContent>`);
    yield* encodeRequest([content]).chunks();
    yield Buffer.from('</fileContent></file></downloadFilesResponse></soap:Body></soap:Envelope>');
  })());
  const downloadRequest = join(dir, 'download-request.xml');
  await writeAll(downloadRequest, [Buffer.from(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFiles xmlns="${NS}"><queueID>Q1</queueID></downloadFiles></soap:Body></soap:Envelope>`)]);

  const env = { PATH: process.env.PATH, BENCH_CA: certs.caCertPath, BENCH_SERVER_CERT: certs.serverCertPath, BENCH_SERVER_KEY: certs.serverKeyPath, BENCH_DOWNLOAD_RESPONSE: downloadResponse };
  server = spawn(process.execPath, [here('./soap-transfer-server.mjs')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    server.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    server.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const soapUrl = `https://127.0.0.1:${port}/services/messaging`;
  const clientEnv = { PATH: process.env.PATH, BENCH_SOAP_URL: soapUrl, BENCH_PFX: certs.clientPfxPath, BENCH_PFX_PASSWORD: certs.clientPfxPassword, BENCH_CA: certs.caCertPath };
  const paykit = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(here('./soap-transfer-client.mjs'))}`;
  const curl = `curl --silent --show-error --fail --cert ${certs.clientCertPath} --key ${certs.clientKeyPath} --cacert ${certs.caCertPath} -X POST -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: ""'`;
  const inbox = join(dir, 'inbox');

  console.log(`SOAP transfer of a ${sizeMiB} MiB file over client-certificate TLS on loopback, ${rounds} round(s), median of each`);
  await compare('uploadFile from a path', {
    paykit: () => measure(`${paykit} upload ${source}`, clientEnv),
    curl: () => measure(`exec ${curl} -T ${uploadEnvelope} ${soapUrl}/UploadFile -o /dev/null`, env),
  });
  await compare('downloadAllToFolder', {
    paykit: async () => {
      await mkdir(inbox, { recursive: true });
      return measure(`${paykit} download ${inbox}`, clientEnv);
    },
    curl: async () => {
      await mkdir(inbox, { recursive: true });
      return measure(`exec ${curl} --data-binary @${downloadRequest} -o ${join(inbox, 'response.xml')} ${soapUrl}/DownloadFiles`, env);
    },
  }, async (name) => {
    const files = await readdir(inbox);
    if (name === 'paykit' && !files.some((file) => file.startsWith('paykit-soap-'))) throw new Error('paykit saved no file');
    await rm(inbox, { recursive: true, force: true });
  });
} finally {
  server?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}
