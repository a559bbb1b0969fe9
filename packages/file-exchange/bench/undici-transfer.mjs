// A transport candidate of the transfer benchmark (BENCH_TRANSPORTS=undici): the same transfers as
// node-https-transfer.mjs (an upload of a file read into four reused 1 MiB buffers, a download written from the body's
// pieces as they come), made with undici 7 instead of node:https, so that one run shows what each HTTP stack costs in
// time and memory on the machine. Its figures chose the one transport both clients share (see the README).
//   node undici-transfer.mjs upload-file PATH URL | download URL PATH
// Certificates come from BENCH_CLIENT_CERT, BENCH_CLIENT_KEY and BENCH_CA (PEM, as curl is given them).
import { closeSync, openSync, read, readFileSync, statSync, writeSync } from 'node:fs';
import { Agent, request } from 'undici';

const [mode, first, second] = process.argv.slice(2);
const dispatcher = new Agent({
  connect: { cert: readFileSync(process.env.BENCH_CLIENT_CERT), key: readFileSync(process.env.BENCH_CLIENT_KEY), ca: readFileSync(process.env.BENCH_CA) },
});

function checkStatus(status, wanted) {
  if (status !== wanted) {
    console.error(`answered ${status}, expected ${wanted}`);
    process.exitCode = 1;
  }
}

if (mode === 'upload-file') {
  const { size } = statSync(first);
  const fd = openSync(first, 'r');
  // undici waits for the socket's 'drain' after each chunk larger than its high-water mark (all of these) before it asks
  // for the next, so a buffer is never read into again before the socket has taken it.
  const free = Array.from({ length: 4 }, () => Buffer.allocUnsafeSlow(1 << 20));
  async function* chunks() {
    let turn = 0;
    for (let offset = 0; offset < size; turn++) {
      const buffer = free[turn % free.length];
      const bytesRead = await new Promise((resolve, reject) => read(fd, buffer, 0, Math.min(buffer.length, size - offset), offset, (error, n) => (error ? reject(error) : resolve(n))));
      offset += bytesRead;
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    }
  }
  const response = await request(second, { dispatcher, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) }, body: chunks() });
  checkStatus(response.statusCode, 202);
  await response.body.dump();
  closeSync(fd);
} else if (mode === 'download') {
  const fd = openSync(second, 'w', 0o600);
  const response = await request(first, { dispatcher });
  checkStatus(response.statusCode, 200);
  for await (const chunk of response.body) {
    for (let offset = 0; offset < chunk.length; ) offset += writeSync(fd, chunk, offset);
  }
  closeSync(fd);
} else {
  throw new Error(`unknown mode ${mode}`);
}
await dispatcher.close();
