// Run by folder-download.test.ts and the bench in a process of its own, so that the peak memory is this upload's: one
// uploadFile from a path (PAYKIT_CHILD_INPUT names it).
import { FileExchangeSoapClient } from '../../src/index.js';
import { measure } from '../../bench/measure.js';

const input = JSON.parse(process.env.PAYKIT_CHILD_INPUT ?? '{}') as { soapUrl: string; pfx: string; passphrase: string; ca: string; path: string; size: number };
const client = await FileExchangeSoapClient.create({ baseUrl: input.soapUrl, tls: { pfx: input.pfx, passphrase: input.passphrase, ca: input.ca }, retry: false });
await measure('@paykit/file-exchange-soap uploadFile from a path', async () => {
  await client.uploadFile({ fileID: 'UPLOAD-1', fileName: 'upload.bin', fileContent: input.path });
  return input.size;
});
await client.close();
