// One transfer through the built @paykit/file-exchange client, run as its own process so that its peak memory can
// be measured from outside exactly like curl's. Usage: paykit-transfer.mjs upload|download <baseUrl> <file>
import { FileExchangeClient } from '../dist/index.js';

const [direction, baseUrl, file] = process.argv.slice(2);
const client = await FileExchangeClient.create({
  baseUrl,
  tls: { pfx: process.env.BENCH_PFX, passphrase: process.env.BENCH_PFX_PASSWORD, ca: process.env.BENCH_CA },
});
try {
  if (direction === 'upload') await client.upload('BENCH_1GIB.bin', file);
  else await client.downloadToFile('BENCH_1GIB.bin', file);
} finally {
  await client.close();
}
