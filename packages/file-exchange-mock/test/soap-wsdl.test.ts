import { readFile } from 'node:fs/promises';
import { Agent as HttpsAgent, get } from 'node:https';
import { join } from 'node:path';
import soap from 'soap';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '../src/index.js';
import { curl } from './support/curl.js';
import { agentFor, send, soapContractDir, soapEnvelope, suiteCertificates } from './helpers.js';

const ports = ['UploadFile', 'DownloadFiles'] as const;

/** Port name -> soap:address of a WSDL, and its schemaLocations, read with regular expressions (node-soap reads it below). */
function addressesIn(wsdl: string): { ports: Record<string, string>; schemaLocations: string[] } {
  const found = [...wsdl.matchAll(/<wsdl:port\s+name="(\w+)"[^>]*>\s*<soap:address\s+location="([^"]*)"/g)];
  return {
    ports: Object.fromEntries(found.map(([, name, location]) => [name, location])),
    schemaLocations: [...wsdl.matchAll(/schemaLocation="([^"]*)"/g)].map(([, location]) => location!),
  };
}

// The mocks listen on free ports, never the WSDL's fixed 4021, so an address copied from the contract file fails.
describe('the WSDL served at ?wsdl gives the addresses the mock listens on', () => {
  let certificates: TestCertificates;
  let cleanup: () => Promise<void>;
  let agent: Agent;
  let mock: FileExchangeMock;
  let plainMock: FileExchangeMock;

  beforeAll(async () => {
    ({ certificates, cleanup } = suiteCertificates());
    agent = await agentFor(certificates, 'client-pfx');
    mock = await startFileExchangeMock({ certificates });
    plainMock = await startFileExchangeMock({ tls: false });
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), plainMock?.close()]);
    await agent?.close();
    await cleanup?.();
  });

  describe.each([
    ['client-certificate TLS', () => mock, () => agent],
    ['plain HTTP (tls: false)', () => plainMock, () => undefined],
  ])('%s', (_, theMock, theAgent) => {
    test.each(ports)('GET %s?wsdl: every port at its path on the mock, the schema imported from the mock', async (port) => {
      const { soapUrl } = theMock();
      expect(new URL(soapUrl).port).not.toBe('4021');
      const response = await send(theAgent(), `${soapUrl}/${port}?wsdl`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/xml/);
      const served = addressesIn(response.body.toString());
      expect(served.ports).toEqual({ UploadFile: `${soapUrl}/UploadFile`, DownloadFiles: `${soapUrl}/DownloadFiles` });
      expect(served.schemaLocations).toEqual([`${soapUrl}/FileExchange.xsd`]);

      const schema = await send(theAgent(), served.schemaLocations[0]!);
      expect(schema.status).toBe(200);
      expect(schema.body.toString()).toBe(await readFile(join(soapContractDir, 'FileExchange.xsd'), 'utf8'));
    });
  });

  test('the served WSDL differs from the contract file only in those addresses', async () => {
    const contract = await readFile(join(soapContractDir, 'FileExchange.wsdl'), 'utf8');
    const contractOrigin = new URL(addressesIn(contract).ports.UploadFile!).origin;
    const served = (await send(agent, `${mock.soapUrl}/UploadFile?wsdl`)).body.toString();
    const restored = served
      .replaceAll(`${mock.soapUrl}/FileExchange.xsd`, 'FileExchange.xsd')
      .replaceAll(new URL(mock.soapUrl).origin, contractOrigin);
    expect(restored).toBe(contract);
  });

  test('without a client certificate the WSDL is refused like any other request (HTTP 403)', async () => {
    const anonymous = await agentFor(certificates, 'none');
    try {
      expect((await send(anonymous, `${mock.soapUrl}/UploadFile?wsdl`)).status).toBe(403);
    } finally {
      await anonymous.close();
    }
  });

  test('node-soap builds its client from the served WSDL alone (schema fetched from the mock) and calls its addresses', async () => {
    const tls = { ca: certificates.caCertPem, pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword };
    const httpsAgent = new HttpsAgent(tls);
    try {
      const client = await soap.createClientAsync(`${mock.soapUrl}/DownloadFiles?wsdl`, { wsdl_options: { httpsAgent }, disableCache: true });
      client.setSecurity(new soap.ClientSSLSecurityPFX(tls.pfx, tls.passphrase, { ca: tls.ca }));
      const servedPorts = client.wsdl.definitions.services.FileExchangeService!.ports;
      expect(Object.fromEntries(ports.map((port) => [port, servedPorts[port]!.location]))).toEqual({
        UploadFile: `${mock.soapUrl}/UploadFile`,
        DownloadFiles: `${mock.soapUrl}/DownloadFiles`,
      });
      // The message types come from the imported XSD: without it node-soap would know no fields.
      const description = client.describe() as { FileExchangeService: { UploadFile: { uploadFile: { input: Record<string, unknown> } } } };
      expect(Object.keys(description.FileExchangeService.UploadFile.uploadFile.input)).toContain('fileContent');

      await client.uploadFileAsync({ fileName: 'from_wsdl.txt', fileContent: Buffer.from('via the served WSDL').toString('base64') });
      expect(mock.store.uploads().find((upload) => upload.fileName === 'from_wsdl.txt')?.content.toString()).toBe('via the served WSDL');
      mock.store.enqueueDownload({ fileName: 'for_wsdl_client.txt', content: Buffer.from('queued') });
      const [result] = (await client.downloadFilesAsync({ queueID: mock.queueId })) as [{ file?: Array<{ fileName: string }> }];
      expect(result.file?.map((file) => file.fileName)).toEqual(['for_wsdl_client.txt']);
    } finally {
      httpsAgent.destroy();
    }
  });

  test('curl: reads the WSDL, then posts a hand-written envelope with an empty fileContent to the address it gives', async () => {
    const wsdl = await curl(certificates, `${mock.soapUrl}/UploadFile?wsdl`);
    expect(wsdl.status).toBe(200);
    const address = addressesIn(wsdl.body).ports.UploadFile!;
    expect(address).toBe(`${mock.soapUrl}/UploadFile`);
    const envelope = soapEnvelope('<fx:uploadFile><fx:fileID>CURL-EMPTY</fx:fileID><fx:fileName>empty_by_curl.txt</fx:fileName><fx:fileContent/></fx:uploadFile>');
    const response = await curl(certificates, address, [
      '--header', 'Content-Type: text/xml; charset=utf-8',
      '--header', 'SOAPAction: ""',
      '--data-binary', '@-',
    ], envelope);
    expect(response.status, response.body).toBe(200);
    expect(response.body).toMatch(/<(\w+:)?uploadFileResponse\b/);
    expect(mock.store.uploads().filter((upload) => upload.fileID === 'CURL-EMPTY')).toEqual([
      expect.objectContaining({ fileName: 'empty_by_curl.txt', size: 0, via: 'soap' }),
    ]);
  });
});

// Listening on every interface (0.0.0.0, ::), the mock's own address is no address a client can call: the WSDL gives
// the one its client used, from the request's Host header, or the local address the connection came in on.
describe.each(['0.0.0.0', '::'])('the WSDL of a mock listening on %s', (host) => {
  let certificates: TestCertificates;
  let cleanup: () => Promise<void>;
  let agent: Agent;
  let mock: FileExchangeMock;
  let port: string;

  beforeAll(async () => {
    ({ certificates, cleanup } = suiteCertificates());
    agent = await agentFor(certificates, 'client-pfx');
    mock = await startFileExchangeMock({ certificates, host });
    port = new URL(mock.soapUrl).port;
  });
  afterAll(async () => {
    await mock?.close();
    await agent?.close();
    await cleanup?.();
  });

  const portsOfWsdl = async (address: string) => addressesIn((await send(agent, `${address}/services/messaging/DownloadFiles?wsdl`)).body.toString());

  /** The WSDL fetched from 127.0.0.1 with another Host header (node:https: undici would check the certificate against it). */
  async function portsOfWsdlWithHost(hostHeader: string) {
    const tls = { ca: certificates.caCertPem, pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword };
    const body = await new Promise<string>((resolve, reject) => {
      const path = '/services/messaging/DownloadFiles?wsdl';
      get({ ...tls, host: '127.0.0.1', port, path, servername: 'localhost', headers: { host: hostHeader }, agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (piece: string) => (text += piece)).on('end', () => resolve(text)).on('error', reject);
      }).on('error', reject);
    });
    return addressesIn(body);
  }

  test.each([
    ['127.0.0.1', () => `https://127.0.0.1:${port}`],
    ['localhost', () => `https://localhost:${port}`],
  ])('fetched from %s: the ports are at the address used', async (_, origin) => {
    const served = await portsOfWsdl(origin());
    expect(served.ports).toEqual({
      UploadFile: `${origin()}/services/messaging/UploadFile`,
      DownloadFiles: `${origin()}/services/messaging/DownloadFiles`,
    });
    expect(served.schemaLocations).toEqual([`${origin()}/services/messaging/FileExchange.xsd`]);
    expect(JSON.stringify(served)).not.toMatch(/0\.0\.0\.0|\[::\]/);
  });

  test('the URLs the mock hands out name the loopback address, and answer', async () => {
    const loopback = host === '::' ? '[::1]' : '127.0.0.1';
    for (const url of [mock.restUrl, mock.soapUrl, mock.controlUrl]) expect(new URL(url!).hostname).toBe(loopback);
    const served = await portsOfWsdl(mock.soapUrl.slice(0, -'/services/messaging'.length));
    expect(served.ports.DownloadFiles).toBe(`${mock.soapUrl}/DownloadFiles`);
  });

  test('behind a port forward: the Host header the client sent', async () => {
    const served = await portsOfWsdlWithHost('files.example.test:8443');
    expect(served.ports.UploadFile).toBe('https://files.example.test:8443/services/messaging/UploadFile');
  });

  test('a Host header that is not a plain host[:port] is not copied: the address the connection came in on', async () => {
    const served = await portsOfWsdlWithHost('evil.test/"><x');
    expect(served.ports.UploadFile).toBe(`https://127.0.0.1:${port}/services/messaging/UploadFile`);
  });

  test('node-soap calls the mock at the address of the WSDL it loaded', async () => {
    const tls = { ca: certificates.caCertPem, pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword };
    const httpsAgent = new HttpsAgent(tls);
    try {
      const client = await soap.createClientAsync(`https://localhost:${port}/services/messaging/DownloadFiles?wsdl`, { wsdl_options: { httpsAgent }, disableCache: true });
      client.setSecurity(new soap.ClientSSLSecurityPFX(tls.pfx, tls.passphrase, { ca: tls.ca }));
      mock.store.enqueueDownload({ fileName: 'ANY_INTERFACE.txt', content: Buffer.from('x') });
      const [result] = (await client.downloadFilesAsync({ queueID: mock.queueId })) as [{ file?: Array<{ fileName: string }> }];
      expect(result.file?.map((file) => file.fileName)).toEqual(['ANY_INTERFACE.txt']);
    } finally {
      httpsAgent.destroy();
    }
  });
});
