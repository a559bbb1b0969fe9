import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import soap from 'soap';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '../src/index.js';
import { SOAP_NS, soapContractDir, soapEnvelope, suiteCertificates, validateAgainstXsd } from './helpers.js';

const wsdlPath = join(soapContractDir, 'FileExchange.wsdl');
const element = (xml: string) => xml.replace(/^<(\w+)/, `<$1 xmlns="${SOAP_NS}"`);

describe('FileExchange.xsd', () => {
  test.each([
    ['an upload with every field', element('<uploadFile><fileID>1</fileID><fileType>T</fileType><mimeType>text/plain</mimeType><fileName>a.txt</fileName><parameter><name>n</name><value>v</value></parameter><parameter><name>m</name><value/></parameter><fileContent>aGk=</fileContent></uploadFile>')],
    ['an upload with the content only', element('<uploadFile><fileContent>aGk=</fileContent></uploadFile>')],
    ['an empty upload response', element('<uploadFileResponse/>')],
    ['a download request', element('<downloadFiles><queueID>Q1</queueID></downloadFiles>')],
    ['an empty download response', element('<downloadFilesResponse/>')],
    ['a download response with two files', element('<downloadFilesResponse><file><fileID>1</fileID><fileContent>aGk=</fileContent></file><file><fileID>2</fileID><fileType>T</fileType><mimeType>a/b</mimeType><fileName>any name</fileName><fileContent></fileContent></file></downloadFilesResponse>')],
    ['a REST XML list', element('<downloadFileList><file><fileName>a.txt</fileName><fileName>b.txt</fileName></file></downloadFileList>')],
    ['a REST XML list with a file element per name', element('<downloadFileList><file><fileName>a.txt</fileName></file><file><fileName>b.txt</fileName></file></downloadFileList>')],
  ])('accepts %s', async (_, xml) => {
    const result = await validateAgainstXsd(xml, 'element');
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test.each([
    ['an upload without content', element('<uploadFile><fileName>a.txt</fileName></uploadFile>'), /fileContent/],
    ['an upload with fields out of order', element('<uploadFile><fileContent>aGk=</fileContent><fileName>a.txt</fileName></uploadFile>'), /fileName/],
    ['an upload with a space in the name', element('<uploadFile><fileName>a b</fileName><fileContent>aGk=</fileContent></uploadFile>'), /pattern/],
    ['a download request without queueID', element('<downloadFiles/>'), /queueID/],
    ['a downloaded file without fileID', element('<downloadFilesResponse><file><fileContent>aGk=</fileContent></file></downloadFilesResponse>'), /fileID/],
    ['an element in another namespace', '<uploadFile xmlns="urn:other"><fileContent>aGk=</fileContent></uploadFile>', /uploadFile/],
  ])('refuses %s', async (_, xml, message) => {
    const result = await validateAgainstXsd(xml, 'element');
    expect(result.valid).toBe(false);
    expect(result.errors.map((error) => error.message).join('\n')).toMatch(message);
  });
});

describe('FileExchange.wsdl', () => {
  test('declares SOAP 1.1 document/literal bindings with an empty SOAPAction', async () => {
    const wsdl = await readFile(wsdlPath, 'utf8');
    expect(wsdl).toContain('xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"');
    expect(wsdl.match(/<soap:operation soapAction="" style="document"\/>/g)).toHaveLength(2);
    expect(wsdl.match(/<soap:body use="literal"\/>/g)).toHaveLength(4);
    expect(wsdl).not.toMatch(/use="encoded"|soap12/);
  });

  test('node-soap reads it: one service, a port per operation at /UploadFile and /DownloadFiles', async () => {
    const client = await soap.createClientAsync(wsdlPath);
    const description = client.describe() as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(description)).toEqual(['FileExchangeService']);
    expect(Object.keys(description.FileExchangeService!)).toEqual(['UploadFile', 'DownloadFiles']);
    expect(Object.keys(description.FileExchangeService!.UploadFile!)).toEqual(['uploadFile']);
    expect(Object.keys(description.FileExchangeService!.DownloadFiles!)).toEqual(['downloadFiles']);
    const ports = client.wsdl.definitions.services.FileExchangeService!.ports;
    expect(new URL(ports.UploadFile!.location).pathname).toBe('/services/messaging/UploadFile');
    expect(new URL(ports.DownloadFiles!.location).pathname).toBe('/services/messaging/DownloadFiles');
  });
});

// Messages written by a real SOAP client (node-soap, from the WSDL) and answered by the mock over client-certificate
// TLS, each validated against the XSD.
describe('real messages between a node-soap client and the mock', () => {
  let certificates: TestCertificates;
  let cleanup: () => Promise<void>;
  let mock: FileExchangeMock;
  let client: soap.Client;

  beforeAll(async () => {
    ({ certificates, cleanup } = suiteCertificates());
    mock = await startFileExchangeMock({ certificates });
    client = await soap.createClientAsync(wsdlPath);
    client.setSecurity(
      new soap.ClientSSLSecurityPFX(await readFile(certificates.clientPfxPath), certificates.clientPfxPassword, {
        ca: certificates.caCertPem,
      }),
    );
  });
  afterAll(async () => {
    await mock.close();
    await cleanup();
  });

  test('uploadFile: request and response are valid', async () => {
    client.setEndpoint(`${mock.soapUrl}/UploadFile`);
    await client.uploadFileAsync({
      fileID: 'ID-1',
      fileType: 'PAYMENTS',
      mimeType: 'text/csv',
      fileName: 'pay.csv',
      parameter: [{ name: 'a', value: '1' }],
      fileContent: Buffer.from('a,b').toString('base64'),
    });
    expect(client.lastRequest).toContain('uploadFile');
    expect((await validateAgainstXsd(client.lastRequest!)).errors).toEqual([]);
    expect((await validateAgainstXsd(client.lastResponse as string)).errors).toEqual([]);
    expect(mock.store.uploads()).toEqual([expect.objectContaining({ fileID: 'ID-1', content: Buffer.from('a,b') })]);
  });

  test('downloadFiles: request and response are valid', async () => {
    mock.store.enqueueDownload({ fileName: 'r.csv', content: Buffer.from('x'), fileType: 'REPORT', mimeType: 'text/csv' });
    client.setEndpoint(`${mock.soapUrl}/DownloadFiles`);
    const [result] = (await client.downloadFilesAsync({ queueID: mock.queueId })) as [{ file?: Array<{ fileName: string; fileContent: string }> }];
    expect(result.file?.map((file) => [file.fileName, Buffer.from(file.fileContent, 'base64').toString()])).toEqual([['r.csv', 'x']]);
    expect((await validateAgainstXsd(client.lastRequest!)).errors).toEqual([]);
    expect((await validateAgainstXsd(client.lastResponse as string)).errors).toEqual([]);
  });

  test('a SOAP fault from the mock is valid SOAP 1.1 and reaches the client as an error with HTTP 500', async () => {
    client.setEndpoint(`${mock.soapUrl}/DownloadFiles`);
    await expect(client.downloadFilesAsync({ queueID: 'WRONG' })).rejects.toMatchObject({ response: { status: 500 } });
    expect((await validateAgainstXsd(client.lastResponse as string)).errors).toEqual([]);
  });

  test('the helper envelope itself is what the XSD expects', async () => {
    expect((await validateAgainstXsd(soapEnvelope('<fx:downloadFiles><fx:queueID>Q</fx:queueID></fx:downloadFiles>'))).valid).toBe(true);
    expect((await validateAgainstXsd(soapEnvelope('<fx:downloadFiles/>'))).valid).toBe(false);
  });
});
