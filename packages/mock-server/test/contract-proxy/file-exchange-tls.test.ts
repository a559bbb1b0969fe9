import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startContractProxy, type ContractProxy } from '@paykit/contract-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestCertificates, prismValidator, startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '../../src/index.js';

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

describe('the proxy in front of the REST file exchange (client-certificate TLS, certificates made for this run)', () => {
  let dir: string;
  let certificates: TestCertificates;
  let mock: FileExchangeMock;
  const proxies: ContractProxy[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-proxy-tls-'));
    certificates = await generateTestCertificates(dir);
    mock = await startFileExchangeMock({ restPort: 0, soapPort: 0, certificates });
  });
  afterAll(async () => {
    await Promise.allSettled(proxies.map((p) => p.close()));
    await mock?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function proxy(withClientCertificate: boolean): Promise<ContractProxy> {
    const started = await startContractProxy({
      upstream: mock.restUrl,
      validator: prismValidator('file-exchange'),
      paymentsRules: false,
      // The proxy ends the client's TLS with a certificate of its own, and presents the client's certificate upstream.
      tls: { cert: await readFile(certificates.serverCertPath), key: await readFile(certificates.serverKeyPath) },
      upstreamTls: {
        ca: certificates.caCertPem,
        ...(withClientCertificate ? { pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword } : {}),
      },
    });
    proxies.push(started);
    return started;
  }

  it('passes the exchange through with the client certificate, and finds no violation', async () => {
    const through = await proxy(true);
    expect(through.url.startsWith('https://')).toBe(true);
    const answer = await get(`${through.url}/filesForDownload/`, certificates.caCertPem, 'text/plain');
    expect([200, 204]).toContain(answer.status);
    expect(through.report()).toMatchObject({ exchanges: 1, totals: { request: 0, answer: 0 }, operations: { 'GET /filesForDownload/': 1 } });
  });

  it('without the client certificate the service refuses the handshake: the client gets 502, nothing is invented', async () => {
    const through = await proxy(false);
    const answer = await get(`${through.url}/filesForDownload/`, certificates.caCertPem, 'text/plain');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).title).toBe('The contract proxy could not reach the service');
    expect(through.report().totals.answer).toBe(0);
  });
});
