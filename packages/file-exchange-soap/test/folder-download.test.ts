// end-to-end: a process of its own downloading 192 MiB (the memory rows), compiled by tsx at its start; with the TLS
// exchanges of the other rows, minutes on a loaded 2-core machine. No timing is asserted.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { FileExchangeSoapClient, InvalidFileNameError, type SavedFile } from '../src/index.js';
import type { DownloadMeasurement } from '../bench/measure.js';
import { answer, discardUpload, startHostileServer, type Behaviour } from './support/hostile-server.js';
import { hostileSuite, NS, xml } from './support/hostile-suite.js';
import { emptySoapResponse, repeatedSha256, streamedSoapFile } from './support/streamed-soap-file.js';
import { soapEnvelope } from './support/scripted-server.js';

// downloadAllToFolder: each file's content is decoded into a file as it arrives (bounded memory), synced and renamed
// from .part once its response is complete; names the service sends are checked like REST names before use.

vi.setConfig({ testTimeout: 60_000 });
const run = promisify(execFile);
const MiB = 1024 * 1024;
/** Where downloadAllToFolder records the fileIDs processed in a folder. */
const processedIds = '.paykit-soap-processed-ids.txt';

const suite = hostileSuite('paykit-folder-');

/**
 * A scope of the server of its own for each test (see startHostileServer.scope): its behaviours are taken by its own
 * requests in order, whatever their connection (no call here has a timeout that could leave one to arrive late, and a
 * retry after a cut response comes on a new connection); a request with none left gets the 599 fallback.
 */
const scoped = (token: string) => suite.server.scope(token, undefined, { warmed: false });
const client = (scope: { soapUrl: string }) =>
  FileExchangeSoapClient.create({
    baseUrl: scope.soapUrl,
    tls: { pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem },
    retry: { intervalMs: 10, maxDurationMs: 10_000, allowShortIntervals: true },
  });
const response = (files: Array<{ id: string; name?: string; content: Buffer }>) =>
  answer(
    200,
    xml,
    soapEnvelope(
      `<downloadFilesResponse xmlns="${NS}">${files
        .map((f) => `<file><fileID>${f.id}</fileID>${f.name === undefined ? '' : `<fileName>${f.name}</fileName>`}<fileContent>${f.content.toString('base64')}</fileContent></file>`)
        .join('')}</downloadFilesResponse>`,
    ),
  );
const sha256 = async (path: string) => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

describe('downloadAllToFolder', () => {
  it('writes every file of every response into the folder, complete, with no .part left', async () => {
    const folder = await mkdtemp(join(suite.dir, 'all-'));
    const [a, b, c] = [randomBytes(70_000), randomBytes(3), Buffer.alloc(0)];
    const scope = scoped('all');
    scope.next(response([{ id: 'A', name: 'a.bin', content: a }, { id: 'B', name: 'b.bin', content: b }]), response([{ id: 'C', content: c }]), emptySoapResponse);
    const soap = await client(scope);
    const saved: SavedFile[] = [];
    for await (const file of soap.downloadAllToFolder('Q1', folder)) saved.push(file);
    expect(saved.map(({ fileID, fileName, size }) => ({ fileID, fileName, size }))).toEqual([
      { fileID: 'A', fileName: 'a.bin', size: a.length },
      { fileID: 'B', fileName: 'b.bin', size: b.length },
      { fileID: 'C', fileName: undefined, size: 0 },
    ]);
    expect(await Promise.all(saved.map((file) => readFile(file.path)))).toEqual([a, b, c]);
    // The files and the record of the fileIDs processed; no .part, no sidecar left once each file was processed.
    expect((await readdir(folder)).sort()).toEqual([...saved.map((file) => file.path.slice(folder.length + 1)), processedIds].sort());
    expect(await readFile(join(folder, processedIds), 'utf8')).toBe('A\nB\nC\n');
    expect(scope.requests.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
    await soap.close();
  });

  it('removes what a response cut short wrote, and keeps the complete copy the retry brings', async () => {
    const folder = await mkdtemp(join(suite.dir, 'cut-'));
    const content = randomBytes(300_000);
    const cut = (): Behaviour => (req, res) => {
      req.resume();
      res.writeHead(200, xml);
      // Cut once what was written has left for the client.
      res.write(`<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>A</fileID><fileContent>${content.toString('base64').slice(0, 100_000)}`, () => res.destroy());
    };
    const scope = scoped('cut');
    scope.next(cut(), response([{ id: 'A', name: 'a.bin', content }]), emptySoapResponse);
    const soap = await client(scope);
    const saved: SavedFile[] = [];
    for await (const file of soap.downloadAllToFolder('Q1', folder)) saved.push(file);
    expect(saved).toHaveLength(1);
    expect((await readdir(folder)).sort()).toEqual([saved[0]!.path.slice(folder.length + 1), processedIds].sort());
    expect(await readFile(saved[0]!.path)).toEqual(content);
    // The cut response, its retry, the empty queue: nothing else.
    expect(scope.requests).toHaveLength(3);
    await soap.close();
  });
});

describe('names the service sends are checked before the caller sees them', () => {
  it.each(['../../etc/cron.d/evil', '..', 'a/b.csv', 'name\u202Etxt.exe', 'C:\\x.csv'].map((name, index) => ({ name, token: `names-${index}` })))('refuses $name with InvalidFileNameError, leaving the file unprocessed', async ({ name, token }) => {
    const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const scope = scoped(token);
    for (const toFolder of [false, true]) {
      const folder = await mkdtemp(join(suite.dir, 'names-'));
      scope.next(response([{ id: 'OK', name: 'ok.csv', content: Buffer.from('1') }, { id: 'BAD', name: escaped, content: Buffer.from('2') }]));
      const soap = await client(scope);
      const session = toFolder ? soap.downloadAllToFolder('Q1', folder) : soap.downloadAll('Q1');
      const seen: string[] = [];
      const error = await (async () => {
        for await (const file of session) seen.push(file.fileID);
      })().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(InvalidFileNameError);
      expect(error).toMatchObject({ operation: 'downloadAll', fileName: name });
      expect(seen).toEqual(['OK']);
      // Nothing is lost: the refused file stays in `unprocessed` (the service will not send it again).
      expect(session.unprocessed.map((file) => file.fileID)).toEqual(['BAD']);
      await soap.close();
    }
    // One DownloadFiles for each session, each answered by its own response.
    expect(scope.requests).toHaveLength(2);
  });
});

/** Downloads one streamed file of `sizeMiB` in a process of its own; its memory growth and the file saved. */
async function downloadInChild(sizeMiB: number): Promise<{ growth: number; received: number }> {
  const folder = await mkdtemp(join(suite.dir, 'memory-'));
  const block = randomBytes(3 * 64 * 1024);
  const repeats = Math.round((sizeMiB * MiB) / block.length);
  const scope = scoped(`memory-${sizeMiB}`);
  scope.next(streamedSoapFile('big.bin', block, repeats), emptySoapResponse);
  const child = fileURLToPath(new URL('./support/folder-download-child.ts', import.meta.url));
  const input = { soapUrl: scope.soapUrl, pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem, folder };
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', child], { env: { ...process.env, PAYKIT_CHILD_INPUT: JSON.stringify(input) } });
  const [measurementLine, savedLine] = stdout.trim().split('\n').slice(-2);
  const measurement = JSON.parse(measurementLine!) as DownloadMeasurement;
  const saved = JSON.parse(savedLine!) as Array<{ path: string; size: number }>;
  expect(await sha256(saved[0]!.path)).toBe(repeatedSha256(block, repeats));
  await rm(folder, { recursive: true, force: true });
  expect(measurement.receivedBytes).toBe(block.length * repeats);
  expect(scope.requests).toHaveLength(2);
  return { growth: measurement.peakRssBytes - measurement.baselineRssBytes, received: measurement.receivedBytes };
}

/** Uploads a file of `sizeMiB` from its path in a process of its own; its memory growth. */
async function uploadInChild(sizeMiB: number): Promise<number> {
  const path = join(suite.dir, `upload-${sizeMiB}.bin`);
  const block = randomBytes(MiB);
  await writeFile(path, Buffer.concat(Array.from({ length: sizeMiB }, () => block)));
  const received = { bytes: 0, complete: false };
  const scope = scoped(`upload-${sizeMiB}`);
  scope.next(discardUpload(200, xml, soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`), received));
  const child = fileURLToPath(new URL('./support/upload-child.ts', import.meta.url));
  const input = { soapUrl: scope.soapUrl, pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem, path, size: sizeMiB * MiB };
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', child], { env: { ...process.env, PAYKIT_CHILD_INPUT: JSON.stringify(input) } });
  const measurement = JSON.parse(stdout.trim().split('\n').at(-1)!) as DownloadMeasurement;
  await rm(path, { force: true });
  // The whole envelope came: the base64 of the file (4 bytes for 3) and the markup around it.
  expect(received.complete).toBe(true);
  expect(received.bytes).toBeGreaterThan((sizeMiB * MiB * 4) / 3);
  return measurement.peakRssBytes - measurement.baselineRssBytes;
}

describe('memory', () => {
  it('uploadFile from a path does not hold the file: 160 MiB takes about the memory of 32 MiB (no timing involved)', async () => {
    const small = await uploadInChild(32);
    const large = await uploadInChild(160);
    // Held in memory (a Uint8Array, as before paths were taken), the extra 128 MiB would grow the process by at
    // least as much, and its base64 by a third more.
    expect(large - small).toBeLessThan((128 * MiB) / 4);
  }, 120_000);

  it('does not grow with the file: 160 MiB takes about the memory of 32 MiB (no timing involved)', async () => {
    const small = await downloadInChild(32);
    const large = await downloadInChild(160);
    // Held in memory, the extra 128 MiB would grow the process by at least as much (the former client: about twice
    // that). Streamed to disk, what grows is the parser's, TLS's and the young generation's buffers, the same for
    // both sizes: a quarter of the difference is a wide margin.
    expect(large.growth - small.growth).toBeLessThan((large.received - small.received) / 4);
  }, 120_000);
});
