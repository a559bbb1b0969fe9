// The paykit contender of the SOAP transfer bench, run by plain node on the built package:
//   node soap-transfer-client.mjs upload PATH | download FOLDER
// (BENCH_SOAP_URL, BENCH_PFX, BENCH_PFX_PASSWORD, BENCH_CA).
import { FileExchangeSoapClient } from '../dist/index.js';

const [mode, target] = process.argv.slice(2);
const client = await FileExchangeSoapClient.create({
  baseUrl: process.env.BENCH_SOAP_URL,
  tls: { pfx: process.env.BENCH_PFX, passphrase: process.env.BENCH_PFX_PASSWORD, ca: process.env.BENCH_CA },
  retry: false,
});
if (mode === 'upload') await client.uploadFile({ fileID: 'BENCH-1', fileName: 'bench.bin', fileContent: target });
else if (mode === 'download') {
  for await (const file of client.downloadAllToFolder('Q1', target)) void file;
} else throw new Error(`unknown mode ${mode}`);
await client.close();
