import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestCertificates } from '@paykit/mock-server';
import { closeAll } from './close-all.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * An HTTPS server with client-certificate TLS (the test CA's certificates) whose answers a test scripts one by one:
 * for responses the contract's mock never gives (a cut body, HTML from a proxy, a wrong element).
 */
export async function startScriptedServer(certificates: TestCertificates) {
  const requests: RecordedRequest[] = [];
  const concurrency = { current: 0, max: 0 };
  const script: Array<(res: ServerResponse) => void> = [];
  const [key, cert] = await Promise.all([readFile(certificates.serverKeyPath), readFile(certificates.serverCertPath)]);
  const server: Server = createServer({ key, cert, ca: certificates.caCertPem, requestCert: true, rejectUnauthorized: true }, async (req, res) => {
    concurrency.max = Math.max(concurrency.max, ++concurrency.current);
    res.once('close', () => concurrency.current--);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    const next = script.shift();
    if (next) next(res);
    else res.writeHead(599).end();
  });
  const close = closeAll(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}/services/messaging`,
    requests,
    /** Requests being handled at once, now and at most so far. */
    concurrency,
    /** Queues the handling of the next request. */
    answerNext(answer: (res: ServerResponse) => void) {
      script.push(answer);
    },
    close,
  };
}

export const xmlHeaders = { 'content-type': 'text/xml; charset=utf-8' };

export function soapEnvelope(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}
