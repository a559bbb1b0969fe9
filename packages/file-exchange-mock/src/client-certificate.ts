import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * TLS options of both servers: a client certificate is asked for but the handshake is completed whatever comes, so
 * that a missing or foreign certificate gets the reference's HTTP 403 ("access refused"; for SOAP "a certificate
 * authentication failure gives HTTP 403"), not a closed connection that a client following the retry rule would
 * retry for four hours.
 */
export const clientCertificateTls = { requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' as const };

/**
 * Answers 403 and returns true when the request came over TLS without a certificate signed by the mock's client CA
 * (none at all is refused alike: the reference admits only the issued certificate). Plain HTTP (`tls: false`) is
 * never refused. The body is read first, so that the client is not cut off mid-upload before it sees the answer.
 */
export async function refusedClientCertificate(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.encrypted || socket.authorized) return false;
  for await (const chunk of req) void chunk;
  res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('client certificate not accepted\n');
  return true;
}
