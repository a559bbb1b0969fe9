// The other end of the transfer benchmark, in its own process so that its work does not count against the client:
// a client-certificate TLS server with the REST paths of the service that discards uploads (202), lists one file,
// streams it for downloads and answers 204 to its delete. Deliberately minimal and identical for both contenders
// (paykit-files and curl).
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';

const { BENCH_CA, BENCH_SERVER_CERT, BENCH_SERVER_KEY, BENCH_DOWNLOAD_FILE } = process.env;
const base = '/services/messaging/rest';

const server = createServer(
  {
    key: await readFile(BENCH_SERVER_KEY),
    cert: await readFile(BENCH_SERVER_CERT),
    ca: await readFile(BENCH_CA),
    requestCert: true,
    rejectUnauthorized: true,
  },
  (request, response) => {
    if (request.method === 'POST' && request.url.startsWith(`${base}/uploadedFiles/`)) {
      let received = 0;
      request.on('data', (chunk) => (received += chunk.length));
      request.on('end', () => {
        const expected = Number(request.headers['content-length']);
        response.writeHead(received === expected ? 202 : 400, { 'content-length': '0' }).end();
      });
      return;
    }
    if (request.method === 'GET' && request.url === `${base}/filesForDownload/`) {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('BENCH_1GIB.bin\n');
      return;
    }
    if (request.method === 'DELETE' && request.url.startsWith(`${base}/filesForDownload/`)) {
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'GET' && request.url.startsWith(`${base}/filesForDownload/`)) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(statSync(BENCH_DOWNLOAD_FILE).size) });
      createReadStream(BENCH_DOWNLOAD_FILE, { highWaterMark: 1 << 20 }).pipe(response);
      return;
    }
    response.writeHead(404, { 'content-length': '0' }).end();
  },
);
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
