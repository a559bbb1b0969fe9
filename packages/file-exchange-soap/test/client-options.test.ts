import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '@paykit/test-support';
import { AbortedError, ClientOptionsError, FileExchangeSoapClient, TransientFailureError } from '../src/index.js';
import { startMock, type MockFixture } from './support/mock.js';

let fixture: MockFixture;
let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
beforeAll(async () => {
  fixture = await startMock();
  proxy = await startConnectProxy({ credentials: { user: 'merchant', password: 'proxy-pass' } });
});
afterAll(async () => {
  await fixture?.close();
  await proxy?.close();
});

describe('client options', () => {
  const badOptions: Array<[string, string, object, string]> = [
    ['a relative base address', 'services/messaging', {}, 'absolute address'],
    ['an ftp base address', 'ftp://host/services/messaging', {}, 'https://'],
    ['credentials in the base address', 'https://user:secret@host/services/messaging', {}, 'must not carry credentials'],
    ['a query in the base address', 'https://host/services/messaging?x=1', {}, 'query'],
    ['a negative retry wait', 'https://host/services/messaging', { retry: { intervalMs: -1, allowShortIntervals: true } }, 'retry.intervalMs'],
    ['a retry wait under the reference minimum, not asked for', 'https://host/services/messaging', { retry: { intervalMs: 1000 } }, 'allowShortIntervals'],
  ];

  it.each(badOptions)('refuses %s with ClientOptionsError before opening the certificate', async (_name, baseUrl, extra, message) => {
    const error = await FileExchangeSoapClient.create({
      baseUrl,
      // A certificate that does not exist: the options must be refused before it is even read.
      tls: { pfx: '/nonexistent.p12', passphrase: 'Cnot-used' },
      ...extra,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientOptionsError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('secret');
  });

  it('goes through an HTTP proxy given in the TLS options, with its credentials', async () => {
    const client = await fixture.client({
      tls: {
        pfx: fixture.certificates.clientPfxPath,
        passphrase: fixture.certificates.clientPfxPassword,
        ca: fixture.certificates.caCertPem,
        proxy: `http://merchant:proxy-pass@127.0.0.1:${proxy.port}`,
      },
    });
    fixture.mock.store.enqueueDownload({ fileName: 'via_proxy.txt', content: Buffer.from('through the tunnel') });
    const files = [];
    for await (const file of client.downloadAll(fixture.mock.queueId)) files.push(file);
    expect(files.map((f) => Buffer.from(f.fileContent).toString())).toEqual(['through the tunnel']);
    const soapPort = new URL(fixture.mock.soapUrl).port;
    // The proxy opens a tunnel only with its credentials as Basic proxy authorisation (else 407).
    expect(proxy.tunnels).toContain(`127.0.0.1:${soapPort}`);
  });

  it('reports an unreachable proxy as a network error that does not carry the proxy password', async () => {
    const closed = await startConnectProxy();
    await closed.close();
    const client = await fixture.client({
      retry: false,
      tls: {
        pfx: fixture.certificates.clientPfxPath,
        passphrase: fixture.certificates.clientPfxPassword,
        ca: fixture.certificates.caCertPem,
        proxy: `http://merchant:proxy-pass@127.0.0.1:${closed.port}`,
      },
    });
    const error = await client.downloadFiles(fixture.mock.queueId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientFailureError);
    for (const text of [(error as Error).message, JSON.stringify(error), String((error as Error).cause)]) {
      expect(text).not.toContain('proxy-pass');
      expect(text).not.toContain(fixture.certificates.clientPfxPassword);
    }
  });

  it('stops downloadAll when its signal is aborted', async () => {
    const client = await fixture.client();
    fixture.mock.store.enqueueDownload({ fileName: 'abort_1.txt', content: Buffer.from('1') });
    const controller = new AbortController();
    const session = client.downloadAll(fixture.mock.queueId, { signal: controller.signal });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const file of session) {
        seen.push(file.fileID);
        controller.abort(new Error('stopped by the caller'));
      }
    })().catch((e: unknown) => e);
    // Typed, naming the loop, with the caller's reason as its cause (never the raw reason).
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ operation: 'downloadAll', cause: new Error('stopped by the caller') });
    // The file was processed before the abort: it is counted, not left over.
    expect(seen).toHaveLength(1);
    expect(session.stats.processed).toBe(1);
    expect(session.unprocessed).toEqual([]);
  });
});
