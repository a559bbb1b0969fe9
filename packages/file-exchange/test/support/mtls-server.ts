import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { TestCertificates } from './certificates.js';

export interface SeenRequest {
  method: string;
  url: string;
  clientCommonName: string | undefined;
}

/**
 * A loopback HTTPS server that demands a client certificate from the test CA and answers 200 "ok", or what `respond`
 * answers (for what the stateful mock never sends).
 */
export async function startMtlsServer(
  certificates: TestCertificates,
  respond: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => response.end('ok'),
): Promise<{ origin: string; seen: SeenRequest[]; server: Server; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = createServer(
    {
      key: await readFile(certificates.serverKeyPath),
      cert: await readFile(certificates.serverCertPath),
      ca: await readFile(certificates.caCertPath),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (request, response) => {
      const peer = (request.socket as TLSSocket).getPeerCertificate();
      seen.push({ method: request.method ?? '', url: request.url ?? '', clientCommonName: [peer.subject?.CN].flat()[0] });
      request.resume();
      request.on('end', () => respond(request, response));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    seen,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
