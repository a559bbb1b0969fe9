// end-to-end: real TLS both ways, with a certificate authority, server and client certificates made at test time
// (seconds of key generation on a loaded machine).
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startContractProxy, type ContractProxy, type UpstreamTls } from '@paykit/contract-proxy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTestCertificates, startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '../../src/index.js';

vi.setConfig({ hookTimeout: 30_000 });

/** A GET over TLS that trusts only the test authority (the merchant's client, which trusts the proxy's certificate). */
function get(url: string, ca: string, accept: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca, headers: { accept } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .once('error', reject)
      .end();
  });
}

type Upstream = 'with the client certificate' | 'without the client certificate' | 'trusting another authority';

describe('the proxy in front of the REST file exchange (client-certificate TLS, certificates made for this run)', () => {
  let dir: string;
  let certificates: TestCertificates;
  let mock: FileExchangeMock;
  const proxies = new Map<Upstream, ContractProxy>();
  // The proxies start once, together, here.
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-proxy-tls-'));
    certificates = await generateTestCertificates(dir);
    const foreign = await generateTestCertificates(await mkdtemp(join(dir, 'foreign-')));
    mock = await startFileExchangeMock({ restPort: 0, soapPort: 0, certificates });
    const pfx = await readFile(certificates.clientPfxPath);
    const client = { pfx, passphrase: certificates.clientPfxPassword };
    const upstreams: Record<Upstream, UpstreamTls> = {
      'with the client certificate': { ca: certificates.caCertPem, ...client },
      'without the client certificate': { ca: certificates.caCertPem },
      'trusting another authority': { ca: foreign.caCertPem, ...client },
    };
    const tls = { cert: await readFile(certificates.serverCertPath), key: await readFile(certificates.serverKeyPath) };
    for (const [name, upstreamTls] of Object.entries(upstreams)) {
      // The proxy ends the client's TLS with a certificate of its own, and presents the client's certificate upstream.
      proxies.set(name as Upstream, await startContractProxy({ upstream: mock.restUrl, contract: 'file-exchange', tls, upstreamTls }));
    }
  });
  afterAll(async () => {
    await Promise.allSettled([...proxies.values()].map((p) => p.close()));
    await mock?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const through = (name: Upstream) => proxies.get(name)!;

  it('passes the exchange through with the client certificate, and finds no violation', async () => {
    const proxy = through('with the client certificate');
    expect(proxy.url.startsWith('https://')).toBe(true);
    const answer = await get(`${proxy.url}/filesForDownload/`, certificates.caCertPem, 'text/plain');
    expect([200, 204]).toContain(answer.status);
    expect(proxy.report()).toMatchObject({ exchanges: 1, totals: { request: 0, answer: 0 }, operations: { listFilesForDownload: 1 }, contract: { name: 'file-exchange' } });
  });

  it('without the client certificate the service answers 403, and the client gets that answer as it came', async () => {
    const proxy = through('without the client certificate');
    const answer = await get(`${proxy.url}/filesForDownload/`, certificates.caCertPem, 'text/plain');
    expect(answer).toEqual({ status: 403, body: 'client certificate not accepted\n' });
    expect(proxy.report()).toMatchObject({ exchanges: 1, operations: { listFilesForDownload: 1 }, statuses: { '403': 1 } });
  });

  it('when the service’s certificate is not from the trusted authority the handshake fails: the client gets 502, nothing is invented', async () => {
    const proxy = through('trusting another authority');
    const answer = await get(`${proxy.url}/filesForDownload/`, certificates.caCertPem, 'text/plain');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).title).toBe('The contract proxy could not reach the service');
    expect(proxy.report()).toMatchObject({ unreachable: 1, totals: { answer: 0 } });
  });
});
