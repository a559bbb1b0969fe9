// The same download with node-soap's own client (the package the mock server is built on), for comparison.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { measure, readChildInput } from './measure.js';

const soap = createRequire(import.meta.url)('soap') as typeof import('soap');
const input = readChildInput();
const client = await soap.createClientAsync(input.wsdlPath);
client.setSecurity(new soap.ClientSSLSecurityPFX(readFileSync(input.pfxPath), input.pfxPassword, { ca: readFileSync(input.caPath) }));
client.setEndpoint(`${input.soapUrl}/DownloadFiles`);
await measure('node-soap 1.13 client', async () => {
  let bytes = 0;
  for (;;) {
    const [result] = (await client.downloadFilesAsync({ queueID: input.queueId })) as [{ file?: Array<{ fileContent: string }> }];
    const files = result?.file ?? [];
    if (files.length === 0) return bytes;
    for (const file of files) bytes += Buffer.from(file.fileContent, 'base64').byteLength;
  }
});
