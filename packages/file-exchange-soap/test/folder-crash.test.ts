// end-to-end: killed processes. downloadAllToFolder in a process of its own (compiled by tsx at its start, seconds
// on a loaded machine), killed with SIGKILL at each step of a response of several files, then run again: every file
// handed over with its name and whole content, none lost, none handed over twice once handled. And a folder that
// fills part way (a tmpfs the test mounts): the files saved before are handed over, the one that failed is named.
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { smallDiskAvailable, smallDiskNote, withSmallDisk, resizeSmallDisk } from '@paykit/test-support';
import { FileExchangeSoapClient, LocalFileError, type SavedFile } from '../src/index.js';
import { answer, streamBody, type Behaviour } from './support/hostile-server.js';
import { hostileSuite, NS, xml } from './support/hostile-suite.js';
import { emptySoapResponse } from './support/streamed-soap-file.js';
import { soapEnvelope } from './support/scripted-server.js';

vi.setConfig({ testTimeout: 90_000 });
const MiB = 1024 * 1024;

const suite = hostileSuite('paykit-folder-crash-');

type File = { id: string; name: string; content: Buffer };
const files: File[] = [
  { id: 'A', name: 'first.csv', content: randomBytes(300_000) },
  { id: 'B', name: 'second.csv', content: randomBytes(200_001) },
  { id: 'C', name: 'third.csv', content: randomBytes(7) },
];
const fileXml = (file: File) => `<file><fileID>${file.id}</fileID><fileName>${file.name}</fileName><fileContent>${file.content.toString('base64')}</fileContent></file>`;
const responseOf = (some: File[]): Behaviour => answer(200, xml, soapEnvelope(`<downloadFilesResponse xmlns="${NS}">${some.map(fileXml).join('')}</downloadFilesResponse>`));
/** The response of all three files, cut in the middle of the second and never ended (what a killed reader saw). */
const cutInSecond: Behaviour = (req, res) => {
  req.resume();
  req.once('end', () => {
    res.writeHead(200, xml);
    const whole = soapEnvelope(`<downloadFilesResponse xmlns="${NS}">${files.map(fileXml).join('')}</downloadFilesResponse>`);
    res.write(whole.slice(0, whole.indexOf(fileXml(files[1]!)) + 1000));
  });
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const expectedLine = (file: File) => `${file.id} ${file.name} ${file.content.length} ${sha256(file.content)}`;

/** Starts the child on `scope`; resolves when it has exited (killed or done). */
function runChild(scope: { soapUrl: string }, folder: string, log: string, killInHandler?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/folder-crash-child.ts', import.meta.url))], {
    env: { ...process.env, PAYKIT_CHILD_INPUT: JSON.stringify({ soapUrl: scope.soapUrl, pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem, folder, log }), ...(killInHandler ? { PAYKIT_KILL_IN_HANDLER: killInHandler } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as string | null, stderr }));
  return { child, exited };
}
const logged = async (log: string) => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);

describe('downloadAllToFolder killed at each step of a response of three files, then run again', () => {
  const rows: Array<{ step: string; first: Behaviour[]; killInHandler?: string; killWhen?: (folder: string, scope: { requests: unknown[] }) => Promise<boolean>; second: Behaviour[]; handledFirst: string[] }> = [
    {
      step: 'while the second file arrives (the first saved, not handed over)',
      first: [cutInSecond],
      killWhen: async (folder) => (await readdir(folder)).some((name) => name.endsWith('.json')),
      // The download was interrupted: the service sends the whole response again.
      second: [responseOf(files), emptySoapResponse],
      handledFirst: [],
    },
    { step: 'in the handler of the first file', first: [responseOf(files)], killInHandler: 'A', second: [emptySoapResponse], handledFirst: [] },
    { step: 'in the handler of the second file', first: [responseOf(files)], killInHandler: 'B', second: [emptySoapResponse], handledFirst: ['A'] },
    {
      step: 'after the response, at the next DownloadFiles',
      first: [responseOf(files), (req) => void req.resume()],
      killWhen: async (_, scope) => scope.requests.length === 2,
      second: [emptySoapResponse],
      handledFirst: ['A', 'B', 'C'],
    },
  ];

  it.each(rows.map((row, index) => ({ ...row, token: `crash-${index}` })))('killed $step: the next run hands over every file once, named and whole', async (row) => {
    const folder = await mkdtemp(join(suite.dir, 'folder-'));
    const log = join(folder, '..', `${row.token}.log`);
    const first = suite.server.scope(`${row.token}-1`, (_, res) => res.writeHead(599).end(), { warmed: false });
    first.next(...row.first);
    const killed = runChild(first, folder, log, row.killInHandler);
    if (row.killWhen) {
      await vi.waitUntil(() => row.killWhen!(folder, first), { timeout: 60_000, interval: 20 });
      killed.child.kill('SIGKILL');
    }
    expect((await killed.exited).signal).toBe('SIGKILL');
    expect((await logged(log)).map((line) => line.split(' ')[0])).toEqual(row.handledFirst);

    const second = suite.server.scope(`${row.token}-2`, (_, res) => res.writeHead(599).end(), { warmed: false });
    second.next(...row.second);
    const again = await runChild(second, folder, log).exited;
    expect(again.code, again.stderr).toBe(0);
    expect(await logged(log)).toEqual(files.map(expectedLine));
    // Left in the folder: the three files and the record of their fileIDs; no sidecar, no .part.
    const left = (await readdir(folder)).sort();
    expect(left.filter((name) => name.startsWith('.paykit-soap-') && name !== '.paykit-soap-processed-ids.txt')).toEqual([]);
    expect(left.filter((name) => name.startsWith('paykit-soap-'))).toHaveLength(3);
  });
});

describe.skipIf(!smallDiskAvailable)(`a folder that fills part way through a response, ${smallDiskNote}`, () => {
  const big = (id: string, size: number): File => ({ id, name: `${id.toLowerCase()}.bin`, content: randomBytes(size) });
  const client = (scope: { soapUrl: string }) =>
    FileExchangeSoapClient.create({ baseUrl: scope.soapUrl, tls: { pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem }, retry: false });
  // Sent without a length, so that the free space cannot be checked first: the disk fills while the third is written.
  const unannounced = (some: File[]): Behaviour =>
    streamBody(200, xml, function* () {
      yield `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}">`;
      for (const file of some) yield fileXml(file);
      yield '</downloadFilesResponse></soap:Body></soap:Envelope>';
    });

  it('hands over the files saved before, then fails naming the file the disk could not hold; after room is made, it comes', async () => {
    const [a, b, c] = [big('A', 2 * MiB), big('B', 2 * MiB), big('C', 6 * MiB)];
    await withSmallDisk(8, async (folder) => {
      const scope = suite.server.scope('disk-full', (_, res) => res.writeHead(599).end(), { warmed: false });
      // The download of C was stopped, so the service sends the response again; A and B are then known.
      scope.next(unannounced([a, b, c]), unannounced([a, b, c]), emptySoapResponse);
      const soap = await client(scope);
      const handed: SavedFile[] = [];
      const error = await (async () => {
        for await (const file of soap.downloadAllToFolder('Q1', folder)) handed.push(file);
      })().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(LocalFileError);
      expect(error).toMatchObject({ code: 'ENOSPC', message: expect.stringContaining('c.bin (fileID C)') });
      expect((error as Error).message).toMatch(/the 2 file\(s\) of this response before it were saved and are handed over/);
      expect(handed.map((file) => [file.fileID, file.fileName])).toEqual([['A', 'a.bin'], ['B', 'b.bin']]);
      // Compared with Buffer#equals: vitest's toEqual walks 2 MiB buffers byte by byte, for minutes.
      expect((await Promise.all(handed.map((file) => readFile(file.path)))).map((bytes, i) => bytes.equals([a, b][i]!.content))).toEqual([true, true]);
      expect((await readdir(folder)).filter((name) => name.endsWith('.part'))).toEqual([]);

      resizeSmallDisk(folder, 32);
      const after: SavedFile[] = [];
      for await (const file of soap.downloadAllToFolder('Q1', folder)) after.push(file);
      expect(after.map((file) => [file.fileID, file.fileName])).toEqual([['C', 'c.bin']]);
      expect((await readFile(after[0]!.path)).equals(c.content)).toBe(true);
      await soap.close();
    });
  });

  it('a response announced larger than the room left is not read: LocalFileError before a byte is written', async () => {
    await withSmallDisk(8, async (folder) => {
      const scope = suite.server.scope('disk-small', (_, res) => res.writeHead(599).end(), { warmed: false });
      const body = soapEnvelope(`<downloadFilesResponse xmlns="${NS}">${fileXml(big('D', 9 * MiB))}</downloadFilesResponse>`);
      scope.next(answer(200, { ...xml, 'content-length': String(Buffer.byteLength(body)) }, body));
      const soap = await client(scope);
      const error = await soap.downloadFilesToFolder('Q1', folder).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ name: 'LocalFileError', code: 'ENOSPC', message: expect.stringMatching(/it was not read, so the service sends its files again/) });
      expect((error as LocalFileError).neededBytes).toBeGreaterThan(9 * MiB);
      expect(await readdir(folder)).toEqual([]);
      await soap.close();
    });
  });
});
