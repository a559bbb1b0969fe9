import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import {
  FileExchangeSoapClient,
  UnexpectedResponseError,
  TransientFailureError,
  ProtocolError,
  type FileExchangeError,
} from '../src/index.js';
import { soapEnvelope, startScriptedServer, xmlHeaders } from './support/scripted-server.js';

const NS = 'urn:paykit:file-exchange:v1';
let dir: string;
let certificates: TestCertificates;
let server: Awaited<ReturnType<typeof startScriptedServer>>;
let client: FileExchangeSoapClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-soap-protocol-'));
  certificates = inject('certificates');
  server = await startScriptedServer(certificates);
  client = await FileExchangeSoapClient.create({
    // A trailing slash on the base address must not double the slash before the port's path.
    baseUrl: `${server.baseUrl}/`,
    tls: { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPem },
    retry: false,
  });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the SOAP 1.1 exchange on the wire', () => {
  it('posts text/xml with an empty quoted SOAPAction and an exact Content-Length to each operation\'s own path', async () => {
    server.answerNext((res) => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`)));
    server.answerNext((res) => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<downloadFilesResponse xmlns="${NS}"/>`)));
    await client.uploadFile({ fileName: 'a.txt', fileContent: Buffer.from('abc') });
    expect(await client.downloadFiles('Q-1')).toEqual([]);
    const [upload, download] = server.requests.slice(-2);
    expect(upload).toMatchObject({ method: 'POST', path: '/services/messaging/UploadFile' });
    expect(download).toMatchObject({ method: 'POST', path: '/services/messaging/DownloadFiles' });
    for (const request of [upload!, download!]) {
      expect(request.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(request.headers.soapaction).toBe('""');
      expect(Number(request.headers['content-length'])).toBe(Buffer.byteLength(request.body));
      expect(request.headers['transfer-encoding']).toBeUndefined();
    }
    expect(download!.body).toContain(`<downloadFiles xmlns="${NS}"><queueID>Q-1</queueID></downloadFiles>`);
  });

  it('uploads an empty file: an empty fileContent, as the XSD allows', async () => {
    server.answerNext((res) => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`)));
    await client.uploadFile({ fileName: 'empty.txt', fileContent: new Uint8Array(0) });
    const upload = server.requests.at(-1)!;
    expect(upload.body).toContain('<fileName>empty.txt</fileName><fileContent></fileContent></uploadFile>');
    expect(Number(upload.headers['content-length'])).toBe(Buffer.byteLength(upload.body));
    const body = /<soap:Body>([\s\S]*)<\/soap:Body>/.exec(upload.body)![1]!;
    const xsd = await readFile(fileURLToPath(new URL('../wsdl/FileExchange.xsd', import.meta.url)), 'utf8');
    const validation = await validateXML({ xml: { fileName: 'upload.xml', contents: body }, schema: { fileName: 'FileExchange.xsd', contents: xsd } });
    expect(validation.errors).toEqual([]);
  });

  it('sends concurrent uploads one at a time, as the service takes only one', async () => {
    for (let i = 0; i < 3; i++) {
      // A server that takes its time to answer, so that uploads sent at once would overlap in it; a pause of the
      // machine only makes an overlap likelier, it cannot hide one.
      // real-time: a slow server's answer, 30 ms
      server.answerNext((res) => setTimeout(() => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`)), 30));
    }
    server.concurrency.max = 0;
    const before = server.requests.length;
    await Promise.all(['one', 'two', 'three'].map((name) => client.uploadFile({ fileName: `${name}.txt`, fileContent: Buffer.from(name) })));
    expect(server.requests.slice(before).map((r) => /<fileName>(\w+)/.exec(r.body)?.[1])).toEqual(['one', 'two', 'three']);
    expect(server.concurrency.max).toBe(1);
  });

  it('lets the next upload go when the one before it failed', async () => {
    server.answerNext((res) => res.writeHead(403).end());
    server.answerNext((res) => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`)));
    const results = await Promise.allSettled([
      client.uploadFile({ fileContent: Buffer.from('refused') }),
      client.uploadFile({ fileContent: Buffer.from('accepted') }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });

  type Failure = [name: string, answer: (res: ServerResponse) => void, type: new (...args: never[]) => FileExchangeError, retryable: boolean];
  const failures: Failure[] = [
    [
      'a body cut off by a dropped connection',
      (res) => {
        res.writeHead(200, { ...xmlHeaders, 'content-length': '100000' });
        // Dropped once what was written has left for the client.
        res.write(soapEnvelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>x</fileID><fileContent>QUJD`).slice(0, -30), () => res.socket?.destroy());
      },
      TransientFailureError,
      true,
    ],
    ['an HTML page with 200 (a captive proxy)', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'), UnexpectedResponseError, false],
    ['a 502 from a proxy', (res) => res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway'), UnexpectedResponseError, false],
    ['a 404 for a wrong base address', (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found'), UnexpectedResponseError, false],
    ['a 500 without a SOAP fault', (res) => res.writeHead(500, xmlHeaders).end('<error>boom</error>'), TransientFailureError, true],
    ['another operation\'s element', (res) => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`)), ProtocolError, false],
    [
      'a file without its required fileID',
      (res) => res.writeHead(200, xmlHeaders).end(soapEnvelope(`<downloadFilesResponse xmlns="${NS}"><file><fileContent>QUJD</fileContent></file></downloadFilesResponse>`)),
      ProtocolError,
      false,
    ],
  ];

  it.each(failures.map(([name, answer, type, retryable]) => ({ name, answer, type, retryable, error: type.name })))(
    'turns $name into $error (retryable: $retryable)',
    async ({ answer, type, retryable }) => {
    server.answerNext(answer);
    const error = await client.downloadFiles('Q-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
      expect((error as FileExchangeError).retryable).toBe(retryable);
    },
  );
});
