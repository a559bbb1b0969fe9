// One child process per measurement, so that the peak memory is this client's alone.
import { FileExchangeSoapClient } from '../src/index.js';
import { measure, readChildInput } from './measure.js';

const input = readChildInput();
const client = await FileExchangeSoapClient.create({
  baseUrl: input.soapUrl,
  tls: { pfx: input.pfxPath, passphrase: input.pfxPassword, ca: input.caPath },
  retry: false,
});
await measure('@paykit/file-exchange-soap', async () => {
  let bytes = 0;
  for await (const file of client.downloadAll(input.queueId)) bytes += file.fileContent.byteLength;
  return bytes;
});
await client.close();
