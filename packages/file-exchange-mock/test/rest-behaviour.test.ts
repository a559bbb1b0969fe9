import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { connect, type TLSSocket } from 'node:tls';
import { describe, expect, test } from 'vitest';
import { startFileExchangeMock } from '../src/index.js';
import { curl } from './support/curl.js';
import { freshMockPerTest, send, validateAgainstXsd } from './helpers.js';

// Every row of the reference's behaviour table and error table for REST, through raw HTTPS requests with the
// issued client certificate.
describe('stateful REST file exchange', () => {
  const env = freshMockPerTest();

  const upload = (name: string, body: string | Buffer, contentType = 'application/octet-stream') =>
    send(env.agent, `${env.mock.restUrl}/uploadedFiles/${name}`, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  const list = (accept = 'text/plain') => send(env.agent, `${env.mock.restUrl}/filesForDownload/`, { headers: { Accept: accept } });
  const download = (name: string) => send(env.agent, `${env.mock.restUrl}/filesForDownload/${name}`);
  const remove = (name: string) => send(env.agent, `${env.mock.restUrl}/filesForDownload/${name}`, { method: 'DELETE' });
  const enqueue = (...names: string[]) => {
    for (const fileName of names) env.mock.store.enqueueDownload({ fileName, content: Buffer.from(`content of ${fileName}`) });
  };

  describe('upload', () => {
    test('a new name is accepted with 202 and an empty body, and the bytes and content type are stored', async () => {
      const response = await upload('PAYMENTS_20260121_001.csv', 'a,b\n1,2\n', 'text/csv');
      expect(response.status).toBe(202);
      expect(response.body.length).toBe(0);
      expect(env.mock.store.uploads()).toEqual([
        expect.objectContaining({ fileName: 'PAYMENTS_20260121_001.csv', mimeType: 'text/csv', content: Buffer.from('a,b\n1,2\n'), via: 'rest' }),
      ]);
    });

    test.each([
      ['application/octet-stream', Buffer.from([0, 1, 2, 255])],
      ['application/xml', '<a/>'],
      ['text/plain', 'hello'],
      ['image/png', Buffer.alloc(20_000_000, 7)], // past the in-memory limit: stored on disk
    ])('any content type is accepted (%s)', async (contentType, body) => {
      expect((await upload('file.bin', body, contentType)).status).toBe(202);
      const [stored] = env.mock.store.uploads();
      expect(stored).toMatchObject({ size: Buffer.byteLength(body), sha256: createHash('sha256').update(body).digest('hex') });
      expect(stored!.content.equals(Buffer.from(body))).toBe(true);
    });

    test('a name already used for a different file gets 400 and the first file is kept', async () => {
      await upload('report.txt', 'first');
      const response = await upload('report.txt', 'second');
      expect(response.status).toBe(400);
      expect(env.mock.store.uploads().map((u) => u.content.toString())).toEqual(['first']);
    });

    test('the same file resent under the same name is silently ignored: 202, no duplicate', async () => {
      await upload('report.txt', 'same bytes');
      expect((await upload('report.txt', 'same bytes')).status).toBe(202);
      expect(env.mock.store.uploads()).toHaveLength(1);
    });

    test.each(['a%20b.txt', 'r%C3%A9sum%C3%A9.txt', 'a%2Fb.txt', 'semi%3Bcolon'])('an unacceptable name (%s) gets 404', async (name) => {
      expect((await upload(name, 'x')).status).toBe(404);
      expect(env.mock.store.uploads()).toHaveLength(0);
    });

    test('202 is given even to a file that is rejected later as malformed', async () => {
      const strict = await startFileExchangeMock({
        certificates: env.certificates,
        rejectUpload: (file) => (file.content.length === 0 ? 'empty file' : undefined),
      });
      try {
        const response = await send(env.agent, `${strict.restUrl}/uploadedFiles/empty.txt`, { method: 'POST', body: '' });
        expect(response.status).toBe(202);
        expect(strict.store.uploads()).toEqual([expect.objectContaining({ fileName: 'empty.txt', rejectedReason: 'empty file' })]);
      } finally {
        await strict.close();
      }
    });

    /** Opens a client-certificate TLS connection and starts an upload that announces 10 bytes but sends 5. */
    async function startHalfUpload(name: string): Promise<{ socket: TLSSocket; response: Promise<string> }> {
      const { port, hostname } = new URL(env.mock.restUrl);
      const socket = connect({
        host: hostname,
        port: Number(port),
        ca: env.certificates.caCertPem,
        pfx: await readFile(env.certificates.clientPfxPath),
        passphrase: env.certificates.clientPfxPassword,
      });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      const response = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString())).on('close', () => resolve(text));
      });
      socket.write(
        `POST /services/messaging/rest/uploadedFiles/${name} HTTP/1.1\r\nHost: ${hostname}\r\n` +
          'Content-Type: text/plain\r\nContent-Length: 10\r\nConnection: close\r\n\r\n12345',
      );
      // The event the test is about: the service is receiving it (the 503 that follows is for a second upload).
      await expect.poll(() => env.mock.store.uploadsBeingReceived(), { timeout: 4_000 }).toBe(1);
      return { socket, response };
    }

    test('a second upload while one is being received gets 503', async () => {
      const first = await startHalfUpload('first.txt');
      const concurrent = await upload('second.txt', 'other');
      expect(concurrent.status).toBe(503);

      first.socket.end('67890');
      expect(await first.response).toMatch(/^HTTP\/1\.1 202/);
      expect(env.mock.store.uploads().map((u) => u.fileName)).toEqual(['first.txt']);
      expect((await upload('second.txt', 'other')).status).toBe(202);
    });

    /** A chunked upload without Content-Length, sent by Node's https client in three pieces. */
    async function chunkedWithNode(name: string): Promise<{ status: number; body: string }> {
      const { certificates } = env;
      const pfx = await readFile(certificates.clientPfxPath);
      return new Promise((resolve, reject) => {
        const req = httpsRequest(`${env.mock.restUrl}/uploadedFiles/${name}`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' },
          ca: certificates.caCertPem,
          pfx,
          passphrase: certificates.clientPfxPassword,
          agent: false,
        });
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write('one,');
        req.write('two,');
        req.end('three');
      });
    }

    /** The same with curl, which streams a chunked body from standard input when asked to. */
    const chunkedWithCurl = (name: string) =>
      curl(env.certificates, `${env.mock.restUrl}/uploadedFiles/${name}`, [
        '--header', 'Transfer-Encoding: chunked',
        '--header', 'Content-Type: text/plain',
        '--data-binary', '@-',
      ], 'one,two,three');

    test.each([
      ['Node https', chunkedWithNode],
      ['curl', chunkedWithCurl],
    ])('a chunked upload without Content-Length (%s) gets 411 and stores nothing', async (_, sendChunked) => {
      const response = await sendChunked('chunked.txt');
      expect(response.status).toBe(411);
      expect(response.body.toString()).toContain('Content-Length');
      expect(env.mock.store.uploads()).toEqual([]);
      // Nothing was kept under the name: the same file with its Content-Length is a new upload.
      expect((await upload('chunked.txt', 'one,two,three')).status).toBe(202);
      expect(env.mock.store.uploads().map((u) => u.content.toString())).toEqual(['one,two,three']);
    });

    test('an empty upload with Content-Length: 0 is accepted', async () => {
      const response = await send(env.agent, `${env.mock.restUrl}/uploadedFiles/empty.txt`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'Content-Length': '0' },
        body: '',
      });
      expect(response.status).toBe(202);
      expect(env.mock.store.uploads()).toEqual([expect.objectContaining({ fileName: 'empty.txt', size: 0 })]);
    });

    test('an upload cut off half way stores nothing and frees the service for the next one', async () => {
      const first = await startHalfUpload('cut.txt');
      first.socket.destroy();
      await first.response;
      // The service saw the connection go (its upload ended) before anything is checked of what it kept.
      await expect.poll(() => env.mock.store.uploadsBeingReceived(), { timeout: 4_000 }).toBe(0);
      expect(env.mock.store.uploads()).toEqual([]);
      expect((await upload('cut.txt', 'whole file')).status).toBe(202);
      expect(env.mock.store.uploads().map((u) => u.content.toString())).toEqual(['whole file']);
    });
  });

  describe('list', () => {
    test('plain text: one name per line, alphabetically', async () => {
      enqueue('c.txt', 'A.txt', 'b.txt', 'a.txt');
      const response = await list();
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body.toString()).toBe('A.txt\na.txt\nb.txt\nc.txt\n');
    });

    test('XML: a downloadFileList in the namespace, valid against the XSD', async () => {
      enqueue('b.xml', 'a.csv');
      const response = await list('application/xml');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      const xml = response.body.toString();
      expect(xml).toContain('<downloadFileList xmlns="urn:paykit:file-exchange:v1"><file><fileName>a.csv</fileName><fileName>b.xml</fileName></file>');
      expect((await validateAgainstXsd(xml, 'element')).errors).toEqual([]);
    });

    test.each([
      ['text/plain', 204, ''],
      ['application/xml', 200, '<?xml version="1.0" encoding="UTF-8"?><downloadFileList xmlns="urn:paykit:file-exchange:v1"/>'],
    ])('an empty queue as %s gives %i', async (accept, status, body) => {
      const response = await list(accept);
      expect(response.status).toBe(status);
      expect(response.body.toString()).toBe(body);
    });

    test('at most 1000 entries, the first ones alphabetically', async () => {
      enqueue(...Array.from({ length: 1001 }, (_, i) => `F${String(1000 - i).padStart(4, '0')}.txt`));
      const names = (await list()).body.toString().trimEnd().split('\n');
      expect(names).toHaveLength(1000);
      expect(names[0]).toBe('F0000.txt');
      expect(names.at(-1)).toBe('F0999.txt');
      expect(env.mock.store.pendingDownloads()).toHaveLength(1001);
    });

    test('the address without the final slash is wrong: 404', async () => {
      enqueue('a.txt');
      expect((await send(env.agent, `${env.mock.restUrl}/filesForDownload`)).status).toBe(404);
    });

    test('listing changes nothing and may be repeated', async () => {
      enqueue('a.txt');
      const first = await list();
      const second = await list();
      expect(second.body.equals(first.body)).toBe(true);
      expect(env.mock.store.pendingDownloads()).toEqual(['a.txt']);
    });
  });

  describe('download and delete', () => {
    test('download returns the content with its media type, and the file stays in the list', async () => {
      env.mock.store.enqueueDownload({ fileName: 'r.xml', content: Buffer.from('<r/>'), mimeType: 'application/xml' });
      const response = await download('r.xml');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/xml');
      expect(response.body.toString()).toBe('<r/>');
      expect(env.mock.store.pendingDownloads()).toEqual(['r.xml']);
    });

    test('50 downloads per file succeed, the 51st gets 429', async () => {
      enqueue('a.txt');
      const statuses = [];
      for (let attempt = 1; attempt <= 51; attempt += 1) statuses.push((await download('a.txt')).status);
      expect(statuses.slice(0, 50)).toEqual(Array(50).fill(200));
      expect(statuses[50]).toBe(429);
    });

    test('delete removes the file from the list with 204; a repeated delete is also 204', async () => {
      enqueue('a.txt', 'b.txt');
      expect((await remove('a.txt')).status).toBe(204);
      expect(env.mock.store.pendingDownloads()).toEqual(['b.txt']);
      expect((await remove('a.txt')).status).toBe(204);
    });

    test.each([
      ['download', download],
      ['delete', remove],
    ])('%s of a file not in the list gets 404', async (_, operation) => {
      enqueue('a.txt');
      expect((await operation('unknown.txt')).status).toBe(404);
      expect((await operation('a%20b.txt')).status).toBe(404);
    });

    test('a deleted file can no longer be downloaded: 404', async () => {
      enqueue('a.txt');
      await remove('a.txt');
      expect((await download('a.txt')).status).toBe(404);
    });

    test('a file given as a path is streamed from disk', async () => {
      const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
      const { join } = await import('node:path');
      const { tmpdir } = await import('node:os');
      const dir = await mkdtemp(join(tmpdir(), 'paykit-queue-'));
      try {
        await writeFile(join(dir, 'big.bin'), Buffer.alloc(3_000_000, 1));
        env.mock.store.enqueueDownload({ fileName: 'big.bin', contentFile: join(dir, 'big.bin') });
        const response = await download('big.bin');
        expect(response.headers['content-length']).toBe('3000000');
        expect(response.body.equals(Buffer.alloc(3_000_000, 1))).toBe(true);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('injected failures', () => {
    test.each([
      ['list', 403, () => list()],
      ['list', 500, () => list()],
      ['download', 500, () => download('a.txt')],
      ['delete', 403, () => remove('a.txt')],
      ['upload', 503, () => upload('n.txt', 'x')],
      ['upload', 403, () => upload('n.txt', 'x')],
    ] as const)('failNext(%s, %i) answers that status once', async (operation, status, call) => {
      enqueue('a.txt');
      env.mock.store.failNext(operation, { status });
      expect((await call()).status).toBe(status);
      expect((await call()).status).toBeLessThan(300);
    });

    test('an upload answered 500 was stored; resending it is ignored', async () => {
      env.mock.store.failNext('upload', { status: 500 });
      expect((await upload('a.txt', 'bytes')).status).toBe(500);
      expect((await upload('a.txt', 'bytes')).status).toBe(202);
      expect(env.mock.store.uploads()).toHaveLength(1);
    });

    test('an upload whose connection drops was stored; resending it is ignored', async () => {
      env.mock.store.failNext('upload', { dropConnection: true });
      await expect(upload('a.txt', 'bytes')).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
      expect((await upload('a.txt', 'bytes')).status).toBe(202);
      expect(env.mock.store.uploads()).toHaveLength(1);
    });

    test.each(['list', 'download', 'delete'] as const)('failNext(%s, dropConnection) breaks that request only', async (operation) => {
      enqueue('a.txt');
      env.mock.store.failNext(operation, { dropConnection: true });
      const call = { list: () => list(), download: () => download('a.txt'), delete: () => remove('a.txt') }[operation];
      await expect(call()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
      expect((await call()).status).toBeLessThan(300);
    });
  });
});
