import { createReadStream, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AccessRefusedError,
  DownloadLimitReachedError,
  FileExchangeClient,
  FileNameAlreadyUsedError,
  FileNameNotAcceptedError,
  FileNotInListError,
  InvalidFileNameError,
  InvalidUploadContentError,
  LocalFileError,
  ProxyRefusedError,
  RetriesExhaustedError,
  TlsConfigurationError,
  UploadInProgressError,
  type UploadContent,
} from '../src/index.js';
import { startConnectProxy } from '@paykit/test-support';
import { withControlledClock } from './support/fake-clock.js';
import { quickRetry, startMock, type MockFixture } from './support/mock.js';

let fx: MockFixture;
let client: FileExchangeClient;
let scratch: string;
let sequence = 0;
/** A fresh name per test: the mock keeps uploads for its whole life. */
const fresh = (stem: string) => `${stem}_${String(++sequence).padStart(3, '0')}.dat`;

beforeAll(async () => {
  fx = await startMock({ maxDownloadAttempts: 3 });
  client = await fx.client();
  scratch = await mkdtemp(join(tmpdir(), 'paykit-fx-client-'));
});
afterAll(async () => {
  await fx?.close();
  await rm(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  // Leave the download queue empty for the next test.
  for (const name of fx.mock.store.pendingDownloads()) await client.delete(name);
});

/** A loopback port nothing listens on (taken and released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const uploadsNamed = (name: string) => fx.mock.store.uploads().filter((upload) => upload.fileName === name);

describe('upload', () => {
  const bytes = Buffer.from('id,amount\n1,100\n');
  const contents: Array<{ kind: string; content: () => Promise<UploadContent> }> = [
    { kind: 'a Buffer', content: async () => bytes },
    { kind: 'a Uint8Array', content: async () => new Uint8Array(bytes) },
    {
      kind: 'a file path',
      content: async () => {
        const path = join(scratch, 'upload.csv');
        await writeFile(path, bytes);
        return path;
      },
    },
    {
      kind: 'an open file descriptor',
      content: async () => {
        const path = join(scratch, 'upload-fd.csv');
        await writeFile(path, bytes);
        return { fd: openSync(path, 'r') };
      },
    },
    { kind: 'a Node stream', content: async () => Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]) },
    {
      kind: 'an async iterable',
      content: async () =>
        (async function* () {
          yield bytes.subarray(0, 3);
          yield bytes.subarray(3);
        })(),
    },
  ];
  it.each(contents)('sends $kind with its content type and length (202)', async ({ content }) => {
    const name = fresh('PAYMENTS');
    await client.upload(name, await content(), { contentType: 'text/csv' });
    expect(uploadsNamed(name)).toEqual([expect.objectContaining({ fileName: name, mimeType: 'text/csv', content: bytes, via: 'rest' })]);
  });

  it.each([
    { kind: 'an open file descriptor (read again from its start)', content: async (path: string) => ({ fd: openSync(path, 'r') }), length: undefined },
    { kind: 'a stream of announced length (sent as read, resent from its copy)', content: async (path: string) => createReadStream(path, { highWaterMark: 4096 }), length: 100_000 },
  ])('resends $kind after a dropped connection; the service keeps one whole copy', async ({ content, length }) => {
    const name = fresh('RESENT_IN_PLACE');
    const path = join(scratch, `${name}.src`);
    const data = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
    await writeFile(path, data);
    const retries: number[] = [];
    const retrying = await fx.client({ retry: { ...quickRetry, onRetry: (event) => retries.push(event.attempt) } });
    fx.mock.store.failNext('upload', { dropConnection: true });
    await retrying.upload(name, await content(path), length === undefined ? {} : { contentLength: length });
    expect(retries).toEqual([1]);
    expect(uploadsNamed(name).map((upload) => Buffer.compare(upload.content, data))).toEqual([0]);
  });

  it.each([
    { title: 'fewer bytes than announced', pieces: ['01234', '56789'], length: 11 },
    { title: 'more bytes than announced', pieces: ['0123456789'], length: 9 },
    // The surplus comes once the announced length could have been sent and the request completed with it.
    { title: 'more bytes than announced, the surplus late', pieces: ['012345678', 'late:9'], length: 9 },
  ])('stops a stream that gives $title before its end, and sends nothing the service keeps', async ({ pieces, length }) => {
    const name = fresh('WRONG_LENGTH');
    // The late piece waits until the body has sent all it may before the end (the announced length but its last
    // byte, held back until the stream ends): then a request could have completed with the announced length.
    let sent = 0;
    let allButLastSent!: () => void;
    const sentAllItMay = new Promise<void>((resolve) => (allButLastSent = resolve));
    const stream = Readable.from(
      (async function* () {
        for (const piece of pieces) {
          if (piece.startsWith('late:')) await sentAllItMay;
          yield Buffer.from(piece.replace('late:', ''));
        }
      })(),
    );
    const onProgress = ({ bytes }: { bytes: number }) => {
      sent = bytes;
      if (sent >= length - 1) allButLastSent();
    };
    const error = await client.upload(name, stream, { contentLength: length, onProgress }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidUploadContentError);
    expect((error as Error).message).toMatch(/were announced; the upload was stopped before its end/);
    expect(uploadsNamed(name)).toEqual([]);
  });

  it('refuses a content length that is not the length of the bytes or file given, before sending', async () => {
    const before = fx.mock.store.uploads().length;
    await expect(client.upload(fresh('LENGTH'), Buffer.from('abc'), { contentLength: 4 })).rejects.toBeInstanceOf(InvalidUploadContentError);
    expect(fx.mock.store.uploads().length).toBe(before);
  });

  it('defaults the content type to application/octet-stream', async () => {
    const name = fresh('BINARY');
    await client.upload(name, Buffer.from([0, 1, 2]));
    expect(uploadsNamed(name)[0]?.mimeType).toBe('application/octet-stream');
  });

  it.each([
    { title: 'an invalid name', call: () => client.upload('bad name.csv', Buffer.from('x')), error: InvalidFileNameError },
    { title: 'a path that does not exist', call: () => client.upload(fresh('MISSING'), join(scratch, 'absent.csv')), error: InvalidUploadContentError },
    { title: 'a content type with a line break', call: () => client.upload(fresh('TYPE'), Buffer.from('x'), { contentType: 'text/plain\r\nX-Evil: 1' }), error: InvalidUploadContentError },
    { title: 'content of an unsupported kind', call: () => client.upload(fresh('KIND'), 42 as unknown as Buffer), error: InvalidUploadContentError },
  ])('refuses $title before sending anything', async ({ call, error }) => {
    const before = fx.mock.store.uploads().length;
    await expect(call()).rejects.toBeInstanceOf(error);
    expect(fx.mock.store.uploads().length).toBe(before);
  });

  it('turns a name reused for different content into FileNameAlreadyUsedError (400)', async () => {
    const name = fresh('REUSED');
    await client.upload(name, Buffer.from('first'));
    await expect(client.upload(name, Buffer.from('second'))).rejects.toMatchObject({ name: 'FileNameAlreadyUsedError', status: 400, fileName: name });
    await expect(client.upload(name, Buffer.from('second'))).rejects.toBeInstanceOf(FileNameAlreadyUsedError);
    expect(uploadsNamed(name).map((upload) => upload.content.toString())).toEqual(['first']);
  });

  it.each([
    { title: 'a 500 after the transfer', failure: { status: 500 } },
    { title: 'a connection dropped before the answer', failure: { dropConnection: true } as const },
  ])('resends the same bytes after $title; the service keeps one copy', async ({ failure }) => {
    const name = fresh('RESENT');
    const retries: number[] = [];
    const retrying = await fx.client({ retry: { ...quickRetry, onRetry: (event) => retries.push(event.attempt) } });
    fx.mock.store.failNext('upload', failure);
    await retrying.upload(name, Readable.from([Buffer.from('resent content')]));
    expect(retries).toEqual([1]);
    expect(uploadsNamed(name).map((upload) => upload.content.toString())).toEqual(['resent content']);
  });

  it.each([
    { status: 403, error: AccessRefusedError },
    { status: 404, error: FileNameNotAcceptedError },
    { status: 503, error: UploadInProgressError },
  ])('turns $status into $error.name without retrying', async ({ status, error }) => {
    const retries: number[] = [];
    const strict = await fx.client({ retry: { ...quickRetry, onRetry: (event) => retries.push(event.attempt) } });
    fx.mock.store.failNext('upload', { status });
    await expect(strict.upload(fresh('REFUSED'), Buffer.from('x'))).rejects.toBeInstanceOf(error);
    expect(retries).toEqual([]);
  });

  it('gets UploadInProgressError while another upload of the customer is being received', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const otherName = fresh('SLOW');
    const slowBody = Readable.from(
      (async function* () {
        yield Buffer.from('part one;');
        await held;
        yield Buffer.from('part two');
      })(),
    );
    const tls = await import('../src/index.js').then(({ createTlsAgent }) =>
      createTlsAgent({ pfx: fx.certificates.clientPfxPath, passphrase: fx.certificates.clientPfxPassword, ca: fx.certificates.caCertPath }),
    );
    const slow = request(`${fx.mock.restUrl}/uploadedFiles/${otherName}`, { dispatcher: tls, method: 'POST', headers: { 'content-length': '17' }, body: slowBody });
    try {
      await expect.poll(async () => {
        const probe = await client.upload(fresh('BUSY'), Buffer.from('x')).then(() => 'accepted', (error: unknown) => (error as Error).name);
        return probe;
      }).toBe('UploadInProgressError');
    } finally {
      release();
      expect((await slow).statusCode).toBe(202);
      await tls.close();
    }
  });

  it('serialises concurrent uploads through one client so none gets 503', async () => {
    const names = [fresh('BATCH'), fresh('BATCH'), fresh('BATCH'), fresh('BATCH')];
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    await Promise.all(names.map((name) => client.upload(name, big)));
    expect(names.map((name) => uploadsNamed(name).length)).toEqual([1, 1, 1, 1]);
  });
});

describe('list', () => {
  it('is empty when nothing waits (204)', async () => {
    expect(await client.list()).toEqual([]);
    expect(await client.list({ format: 'xml' })).toEqual([]);
  });

  it.each(['text', 'xml'] as const)('returns the names alphabetically as %s', async (format) => {
    for (const fileName of ['C.csv', 'A.csv', 'B_2.xml']) fx.mock.store.enqueueDownload({ fileName, content: Buffer.from(fileName) });
    expect(await client.list({ format })).toEqual(['A.csv', 'B_2.xml', 'C.csv']);
  });

  it.each([{ status: 500 }, { dropConnection: true } as const])('retries after %o', async (failure) => {
    fx.mock.store.enqueueDownload({ fileName: 'A.csv', content: Buffer.from('a') });
    fx.mock.store.failNext('list', failure);
    expect(await client.list()).toEqual(['A.csv']);
  });

  it('turns 403 into AccessRefusedError', async () => {
    fx.mock.store.failNext('list', { status: 403 });
    await expect(client.list()).rejects.toBeInstanceOf(AccessRefusedError);
  });
});

describe('download and delete', () => {
  it('downloads as a stream; the file stays listed until deleted, and a repeated delete succeeds', async () => {
    const content = Buffer.from('<report/>');
    fx.mock.store.enqueueDownload({ fileName: 'REPORT_1.xml', content, mimeType: 'application/xml' });
    const file = await client.download('REPORT_1.xml');
    expect(file).toMatchObject({ name: 'REPORT_1.xml', contentType: 'application/xml', contentLength: content.length });
    expect(Buffer.concat(await file.body.toArray())).toEqual(content);
    expect(await client.list()).toEqual(['REPORT_1.xml']);
    await client.delete('REPORT_1.xml');
    await client.delete('REPORT_1.xml');
    expect(await client.list()).toEqual([]);
  });

  it('downloads to a file, restarting after a dropped connection', async () => {
    const content = Buffer.alloc(512 * 1024, 'z');
    fx.mock.store.enqueueDownload({ fileName: 'BIG.bin', content });
    fx.mock.store.failNext('download', { dropConnection: true });
    const path = join(scratch, 'BIG.bin');
    expect(await client.downloadToFile('BIG.bin', path)).toEqual({ size: content.length });
    // Buffer.equals: a deep comparison of 512 KiB byte by byte takes seconds on a busy machine.
    expect((await readFile(path)).equals(content)).toBe(true);
  });

  it('refuses a download after the attempt limit with DownloadLimitReachedError (429)', async () => {
    fx.mock.store.enqueueDownload({ fileName: 'POPULAR.csv', content: Buffer.from('p') });
    for (let attempt = 0; attempt < 3; attempt++) await (await client.download('POPULAR.csv')).body.toArray();
    await expect(client.download('POPULAR.csv')).rejects.toMatchObject({ name: 'DownloadLimitReachedError', status: 429 });
    await expect(client.downloadToFile('POPULAR.csv', join(scratch, 'p'))).rejects.toBeInstanceOf(DownloadLimitReachedError);
  });

  /** Downloads the file until the service refuses (429), and says how many downloads were left. */
  async function downloadsLeft(name: string): Promise<number> {
    for (let left = 0; ; left++) {
      const outcome = await client.download(name).then(
        async (file) => void (await file.body.toArray()),
        (error: unknown) => error,
      );
      if (outcome instanceof DownloadLimitReachedError) return left;
      if (outcome !== undefined) throw outcome;
    }
  }

  it.each([
    { title: 'a folder that does not exist', path: () => join(scratch, 'missing', 'LOCAL.bin'), code: 'ENOENT', spent: 0 },
    { title: 'a name too long for the file system', path: () => join(scratch, `${'x'.repeat(300)}.bin`), code: 'ENAMETOOLONG', spent: 0 },
    { title: 'a full disk', path: () => '/dev/full', code: 'ENOSPC', spent: 1 },
  ])('fails at once with LocalFileError for $title, without retrying (downloads spent: $spent)', async ({ path, code, spent }) => {
    fx.mock.store.enqueueDownload({ fileName: 'LOCAL.bin', content: Buffer.alloc(256 * 1024, 'l') });
    const retries: number[] = [];
    const strict = await fx.client({ retry: { ...quickRetry, onRetry: (event) => retries.push(event.attempt) } });
    const error = await strict.downloadToFile('LOCAL.bin', path()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error).toMatchObject({ code, operation: 'downloadFile', fileName: 'LOCAL.bin' });
    expect(retries).toEqual([]);
    // The mock allows 3 downloads per file here: a local failure spends at most the download that was cut.
    expect(await downloadsLeft('LOCAL.bin')).toBe(3 - spent);
  });

  it.each([
    { title: 'download', call: () => client.download('NEVER_QUEUED.csv') },
    { title: 'delete', call: () => client.delete('NEVER_QUEUED.csv') },
  ])('turns 404 on $title into FileNotInListError', async ({ call }) => {
    await expect(call()).rejects.toBeInstanceOf(FileNotInListError);
  });

  it.each([
    { title: 'download', call: () => client.download('../uploadedFiles') },
    { title: 'delete', call: () => client.delete('..') },
  ])('checks the name before $title', async ({ call }) => {
    await expect(call()).rejects.toBeInstanceOf(InvalidFileNameError);
  });
});

describe('retry window', () => {
  it('gives up with RetriesExhaustedError when the service stays unreachable', async () => {
    const attempts: number[] = [];
    // Each failed try moves the window's clock on by 1 s: the third failure falls outside a window of 1.5 s, however
    // fast or slow the machine is (a refused connection fails in about a millisecond).
    const error = await withControlledClock(async () => {
      const unreachable = await fx.client({
        baseUrl: `https://127.0.0.1:${await closedPort()}/services/messaging/rest`,
        retry: {
          intervalMs: 10,
          maxDurationMs: 1500,
          allowShortIntervals: true,
          onRetry: (event) => {
            attempts.push(event.attempt);
            vi.advanceTimersByTime(1000);
          },
        },
      });
      return unreachable.list().catch((thrown: unknown) => thrown);
    });
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect(attempts).toEqual([1, 2]);
    expect((error as RetriesExhaustedError).attempts).toBe(3);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});

describe('client certificate', () => {
  // The mock answers a certificate from another CA with 403 (access refused): final, so a client following the
  // retry rule does not retry it for hours (a server that closes the connection instead: soap/one-client-model.test.ts).
  it('from another CA gets AccessRefusedError at once from list, upload and processAll, not retried', async () => {
    const tls = { pfx: fx.certificates.foreignClientPfxPath, passphrase: fx.certificates.foreignClientPfxPassword, ca: fx.certificates.caCertPath };
    const before = fx.mock.store.uploads().length;
    fx.mock.store.enqueueDownload({ fileName: 'KEPT_FOR_THE_OWNER.txt', content: Buffer.from('x') });
    const retries: number[] = [];
    const refused = await fx.client({ tls, retry: { intervalMs: 10, maxDurationMs: 60_000, allowShortIntervals: true, onRetry: ({ attempt }) => retries.push(attempt) } });
    const handled: string[] = [];
    const outcomes = await Promise.all([
      refused.list().catch((thrown: unknown) => thrown),
      refused.upload(fresh('FOREIGN'), Buffer.from('x')).catch((thrown: unknown) => thrown),
      refused.processAll(async (file) => void handled.push(file.name), { ledger: { has: async () => false, record: async () => {} } }).catch((thrown: unknown) => thrown),
    ]);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ name: 'AccessRefusedError', status: 403, retryable: false });
    expect(retries).toEqual([]);
    expect(handled).toEqual([]);
    expect(fx.mock.store.uploads().length).toBe(before);
    expect(fx.mock.store.pendingDownloads()).toContain('KEPT_FOR_THE_OWNER.txt');
  });

  it('is required for https', async () => {
    await expect(FileExchangeClient.create({ baseUrl: fx.mock.restUrl })).rejects.toBeInstanceOf(TlsConfigurationError);
  });

  it('with a wrong password fails at creation with a message that hides it', async () => {
    const error = await fx.client({ tls: { pfx: fx.certificates.clientPfxPath, passphrase: 'Cnot-the-password' } }).then(
      () => new Error('created'),
      (thrown: unknown) => thrown as Error,
    );
    expect(error).toBeInstanceOf(TlsConfigurationError);
    expect(error.message).toMatch(/password does not open/);
    expect(`${error.message}${error.stack}`).not.toContain('Cnot-the-password');
  });

  it('works as PEM certificate and key', async () => {
    const pem = await fx.client({ tls: { cert: fx.certificates.clientCertPath, key: fx.certificates.clientKeyPath, ca: fx.certificates.caCertPath } });
    fx.mock.store.enqueueDownload({ fileName: 'PEM.txt', content: Buffer.from('pem') });
    expect(await pem.list()).toEqual(['PEM.txt']);
  });
});

describe('through an HTTP proxy', () => {
  it('uploads, lists, downloads and deletes through a CONNECT tunnel with proxy credentials', async () => {
    const proxy = await startConnectProxy({ credentials: { user: 'merchant', password: 'proxy-secret' } });
    try {
      const proxied = await fx.client({
        tls: {
          pfx: fx.certificates.clientPfxPath,
          passphrase: fx.certificates.clientPfxPassword,
          ca: fx.certificates.caCertPath,
          proxy: proxy.url.replace('//', '//merchant:proxy-secret@'),
        },
      });
      const name = fresh('PROXIED');
      await proxied.upload(name, Buffer.from('via proxy'));
      fx.mock.store.enqueueDownload({ fileName: 'PROXIED.txt', content: Buffer.from('back via proxy') });
      expect(await proxied.list()).toEqual(['PROXIED.txt']);
      expect(Buffer.concat(await (await proxied.download('PROXIED.txt')).body.toArray()).toString()).toBe('back via proxy');
      await proxied.delete('PROXIED.txt');
      expect(uploadsNamed(name).map((upload) => upload.content.toString())).toEqual(['via proxy']);
      const target = new URL(fx.mock.restUrl).host;
      // Every request, list and delete included, went through the tunnel (one keep-alive tunnel may carry them all).
      expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
      expect(new Set(proxy.tunnels)).toEqual(new Set([target]));
    } finally {
      await proxy.close();
    }
  });

  it.each([
    { title: 'upload (node:https tunnel)', call: (c: FileExchangeClient) => c.upload(fresh('NOPROXY'), Buffer.from('x')) },
    { title: 'list (openapi-fetch over the same tunnel)', call: (c: FileExchangeClient) => c.list() },
  ])('refuses wrong proxy credentials at once on $title, without showing them', async ({ call }) => {
    const proxy = await startConnectProxy({ credentials: { user: 'merchant', password: 'right' } });
    try {
      const retries: number[] = [];
      const proxied = await fx.client({
        tls: { pfx: fx.certificates.clientPfxPath, passphrase: fx.certificates.clientPfxPassword, ca: fx.certificates.caCertPath, proxy: proxy.url.replace('//', '//merchant:Cwrong-proxy@') },
        retry: { ...quickRetry, onRetry: (event) => retries.push(event.attempt) },
      });
      const error = await call(proxied).then(() => new Error('no error'), (thrown: unknown) => thrown as Error);
      expect(error).toBeInstanceOf(ProxyRefusedError);
      expect(retries).toEqual([]);
      expect(`${error.message}${error.stack}`).not.toContain('Cwrong-proxy');
    } finally {
      await proxy.close();
    }
  });
});
