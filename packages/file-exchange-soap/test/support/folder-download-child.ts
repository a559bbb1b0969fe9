// Run by folder-download.test.ts and the bench in a process of its own, so that the peak memory is this download's.
import { FileExchangeSoapClient } from '../../src/index.js';
import { measure } from '../../bench/measure.js';

const input = JSON.parse(process.env.PAYKIT_CHILD_INPUT ?? '{}') as { soapUrl: string; pfx: string; passphrase: string; ca: string; folder: string };
const client = await FileExchangeSoapClient.create({ baseUrl: input.soapUrl, tls: { pfx: input.pfx, passphrase: input.passphrase, ca: input.ca }, retry: false });
const saved: Array<{ fileName: string | undefined; path: string; size: number }> = [];
await measure('@paykit/file-exchange-soap to a folder', async () => {
  for await (const file of client.downloadAllToFolder('Q1', input.folder)) saved.push({ fileName: file.fileName, path: file.path, size: file.size });
  return saved.reduce((total, file) => total + file.size, 0);
});
process.stdout.write(`${JSON.stringify(saved)}\n`);
await client.close();
