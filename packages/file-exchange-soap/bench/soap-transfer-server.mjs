// The other end of the SOAP transfer bench, in its own process so that its work does not count against the client: a
// client-certificate TLS server that reads an UploadFile to its end (its length checked) and answers an empty
// uploadFileResponse, and answers DownloadFiles with a prepared response (BENCH_DOWNLOAD_RESPONSE, one large file) on
// a connection's first request and an empty response after (a client's loop asks again until the queue is empty).
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';

const { BENCH_CA, BENCH_SERVER_CERT, BENCH_SERVER_KEY, BENCH_DOWNLOAD_RESPONSE } = process.env;
const NS = 'urn:paykit:file-exchange:v1';
const envelope = (body) => `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const served = new WeakSet();

const server = createServer({ key: await readFile(BENCH_SERVER_KEY), cert: await readFile(BENCH_SERVER_CERT), ca: await readFile(BENCH_CA), requestCert: true, rejectUnauthorized: true }, (request, response) => {
  let received = 0;
  request.on('data', (chunk) => (received += chunk.length));
  request.on('end', () => {
    if (received !== Number(request.headers['content-length'])) return void response.writeHead(400).end();
    if (request.url.endsWith('/UploadFile')) {
      const body = envelope(`<uploadFileResponse xmlns="${NS}"/>`);
      return void response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    }
    if (served.has(request.socket)) {
      const body = envelope(`<downloadFilesResponse xmlns="${NS}"/>`);
      return void response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    }
    served.add(request.socket);
    response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': statSync(BENCH_DOWNLOAD_RESPONSE).size });
    createReadStream(BENCH_DOWNLOAD_RESPONSE, { highWaterMark: 1 << 20 }).pipe(response);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
