import { readFile } from 'node:fs/promises';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OperationName } from '../src/generated/contract.js';
import { startMock, type MockFixture } from './support/mock.js';

let fixture: MockFixture;
beforeAll(async () => {
  fixture = await startMock();
});
afterAll(async () => fixture?.close());

/** The WSDL the mock serves at `?wsdl`, fetched over its client-certificate TLS. */
async function servedWsdl(): Promise<string> {
  const { certificates } = fixture;
  const agent = new Agent({ connect: { ca: certificates.caCertPem, pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword } });
  try {
    const response = await request(`${fixture.mock.soapUrl}/UploadFile?wsdl`, { dispatcher: agent });
    expect(response.statusCode).toBe(200);
    return await response.body.text();
  } finally {
    await agent.close();
  }
}

const addressOf = (wsdl: string, port: string) => new RegExp(`<wsdl:port\\s+name="${port}"[^>]*>\\s*<soap:address\\s+location="([^"]*)"`).exec(wsdl)?.[1];

describe('the WSDL the mock serves at ?wsdl', () => {
  it('gives, for each operation, the address this client posts to with baseUrl = that address without its last segment', async () => {
    const wsdl = await servedWsdl();
    const uploadAddress = addressOf(wsdl, operations.uploadFile.port)!;
    // What the README tells a merchant to do with an operator's WSDL: cut the port's last path segment.
    const baseUrl = uploadAddress.slice(0, uploadAddress.lastIndexOf('/'));
    expect(baseUrl).toBe(fixture.mock.soapUrl);
    const client = await fixture.client({ baseUrl });
    for (const operation of Object.keys(operations) as OperationName[]) {
      expect(client.operationUrl(operation)).toBe(addressOf(wsdl, operations[operation].port));
    }

    await client.uploadFile({ fileID: 'served-wsdl-1', fileName: 'served_wsdl.txt', fileContent: Buffer.from('to the served address') });
    expect(fixture.mock.store.uploads().find((upload) => upload.fileID === 'served-wsdl-1')?.content.toString()).toBe('to the served address');
    fixture.mock.store.enqueueDownload({ fileName: 'from_served_address.txt', content: Buffer.from('back') });
    expect((await client.downloadFiles(fixture.mock.queueId)).map((file) => file.fileName)).toEqual(['from_served_address.txt']);
  });
});
