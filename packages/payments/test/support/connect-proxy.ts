import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback-server.js';

export interface ProxyOptions {
  /** Credentials the proxy asks for: without them as Basic proxy authorisation, it answers 407. */
  credentials?: { user: string; password: string };
  /** A proxy whose rules forbid the target: it answers 403 to every tunnel. */
  forbid?: boolean;
}

/**
 * A real HTTP proxy on loopback, like the corporate proxies merchants put in front of the service: it tunnels
 * (CONNECT) and forwards plain requests (absolute-form, as a proxy gets them without a tunnel), and records each
 * request it got, refused or not.
 */
export async function startProxy({ credentials, forbid }: ProxyOptions = {}) {
  /** `CONNECT host:port` or `GET http://...`, for every request the proxy got. */
  const received: string[] = [];
  const expected = credentials && `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  const refusal = (request: IncomingMessage) =>
    forbid ? '403 Forbidden' : expected && request.headers['proxy-authorization'] !== expected ? '407 Proxy Authentication Required' : undefined;
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    const refused = refusal(request);
    if (refused) return void response.writeHead(Number(refused.slice(0, 3)), { 'Proxy-Authenticate': 'Basic' }).end();
    // Forwarding plain HTTP is not needed by the tests: they use it only to be refused.
    response.writeHead(502).end();
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    received.push(`CONNECT ${request.url}`);
    // A tunnel's sockets are no longer the HTTP server's: closing the proxy ends them here.
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const refused = refusal(request);
    if (refused) return void client.end(`HTTP/1.1 ${refused}\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n`);
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    for (const socket of [client, upstream]) socket.on('error', () => (socket === client ? upstream : client).destroy());
  });
  const { port, close } = await listenOnLoopback(server, sockets);
  return { url: `http://127.0.0.1:${port}`, received, close };
}
