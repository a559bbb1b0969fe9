import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { Agent } from 'undici';
import { startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '../src/index.js';
import { curl } from './support/curl.js';
import { agentFor, send, soapEnvelope, soapHeaders, suiteCertificates, type ClientIdentity } from './helpers.js';

describe('client-certificate TLS of the stateful mock', () => {
  let certificates: TestCertificates;
  let cleanup: () => Promise<void>;
  let mock: FileExchangeMock;
  const agents: Agent[] = [];

  beforeAll(async () => {
    ({ certificates, cleanup } = suiteCertificates());
    mock = await startFileExchangeMock({ certificates });
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await mock.close();
    await cleanup();
  });

  async function as(identity: ClientIdentity): Promise<Agent> {
    const agent = await agentFor(certificates, identity);
    agents.push(agent);
    return agent;
  }

  const listRequest = () => `${mock.restUrl}/filesForDownload/`;
  const soapDownload = () => ({
    url: `${mock.soapUrl}/DownloadFiles`,
    init: {
      method: 'POST' as const,
      headers: soapHeaders,
      body: soapEnvelope(`<fx:downloadFiles><fx:queueID>${mock.queueId}</fx:queueID></fx:downloadFiles>`),
    },
  });

  test('the addresses are HTTPS on loopback with the reference’s base paths', () => {
    expect(mock.restUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/services\/messaging\/rest$/);
    expect(mock.soapUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/services\/messaging$/);
  });

  test.each(['client-pfx', 'client-pem'] as const)('REST accepts the issued certificate (%s)', async (identity) => {
    const response = await send(await as(identity), listRequest());
    expect(response.status).toBe(204);
  });

  // The reference's 403 ("access refused"), not a closed handshake: a client following the retry rule would retry a
  // closed connection for four hours, while a 403 is final. No certificate at all is refused the same way.
  test.each([
    ['none', 'GET', '/filesForDownload/'],
    ['foreign', 'GET', '/filesForDownload/'],
    ['foreign', 'GET', '/filesForDownload/QUEUED.txt'],
    ['foreign', 'DELETE', '/filesForDownload/QUEUED.txt'],
    ['none', 'POST', '/uploadedFiles/REFUSED.txt'],
    ['foreign', 'POST', '/uploadedFiles/REFUSED.txt'],
  ] as const)('REST with certificate %s answers %s %s with HTTP 403 and changes nothing', async (identity, method, path) => {
    mock.store.enqueueDownload({ fileName: 'QUEUED.txt', content: Buffer.from('kept') });
    const uploads = mock.store.uploads().length;
    const response = await send(await as(identity), `${mock.restUrl}${path}`, {
      method,
      ...(method === 'POST' ? { body: Buffer.alloc(64 * 1024, 1), headers: { 'Content-Type': 'text/plain' } } : {}),
    });
    expect(response.status).toBe(403);
    expect(response.body.toString()).toBe('client certificate not accepted\n');
    expect(mock.store.uploads()).toHaveLength(uploads);
    expect(mock.store.pendingDownloads()).toContain('QUEUED.txt');
  });

  const soapCurlArgs = ['--header', 'Content-Type: text/xml; charset=utf-8', '--header', 'SOAPAction: ""', '--data-binary', '@-'];
  test.each([
    ['foreign', 'REST list', () => ({ url: listRequest(), args: [], body: undefined })],
    ['none', 'REST list', () => ({ url: listRequest(), args: [], body: undefined })],
    ['foreign', 'SOAP DownloadFiles', () => ({ url: soapDownload().url, args: soapCurlArgs, body: soapDownload().init.body })],
    ['none', 'SOAP DownloadFiles', () => ({ url: soapDownload().url, args: soapCurlArgs, body: soapDownload().init.body })],
  ] as const)('curl with certificate %s gets HTTP 403 from %s over one connection', async (identity, _, request) => {
    const { url, args, body } = request();
    const response = await curl(certificates, url, [...args], body, identity);
    expect(response).toEqual({ status: 403, connects: 1, body: 'client certificate not accepted\n' });
  });

  test.each([
    ['client-pfx', 200],
    ['client-pem', 200],
    ['none', 403],
    ['foreign', 403],
  ] as const)('SOAP with certificate %s answers HTTP %i', async (identity, status) => {
    const { url, init } = soapDownload();
    const response = await send(await as(identity), url, init);
    expect(response.status).toBe(status);
    if (status === 403) expect(response.body.toString()).not.toContain('Envelope');
  });

  test('TLS below 1.2 is refused', async () => {
    const { connect } = await import('node:tls');
    const { hostname, port } = new URL(mock.restUrl);
    const socket = connect({
      host: hostname,
      port: Number(port),
      ca: certificates.caCertPem,
      pfx: await readFile(certificates.clientPfxPath),
      passphrase: certificates.clientPfxPassword,
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
    });
    const outcome = await new Promise<string>((resolve) => {
      socket.once('secureConnect', () => resolve('connected')).once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    socket.destroy();
    expect(outcome).not.toBe('connected');
  });

  test('a client trusting another CA refuses the mock’s server certificate', async () => {
    const other = { certificates: inject('otherCertificates'), cleanup: async () => undefined };
    try {
      const agent = new Agent({
        connect: { ca: other.certificates.caCertPem, pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword },
      });
      agents.push(agent);
      await expect(send(agent, listRequest())).rejects.toMatchObject({ code: expect.stringMatching(/CERT|SIGNATURE|VERIFY/) });
    } finally {
      await other.cleanup();
    }
  });
});

describe('plain HTTP mode', () => {
  test('tls: false serves both APIs over HTTP without certificates', async () => {
    const mock = await startFileExchangeMock({ tls: false });
    try {
      expect(mock.restUrl.startsWith('http://')).toBe(true);
      expect(mock.certificates).toBeUndefined();
      mock.store.enqueueDownload({ fileName: 'a.txt', content: Buffer.from('a') });
      expect((await send(undefined, `${mock.restUrl}/filesForDownload/`)).body.toString()).toBe('a.txt\n');
      const soap = await send(undefined, `${mock.soapUrl}/DownloadFiles`, {
        method: 'POST',
        headers: soapHeaders,
        body: soapEnvelope(`<fx:downloadFiles><fx:queueID>${mock.queueId}</fx:queueID></fx:downloadFiles>`),
      });
      expect(soap.status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
