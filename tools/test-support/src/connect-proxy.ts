import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ConnectProxyOptions {
  /** Credentials the proxy asks for: without them as Basic proxy authorisation, it answers 407. */
  credentials?: { user: string; password: string };
  /** A proxy whose rules forbid the target: it answers 403 to every request. */
  forbid?: boolean;
}

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`, without credentials. */
  url: string;
  port: number;
  /** `CONNECT host:port` or `GET http://...`, for every request the proxy got, refused or not. */
  received: string[];
  /** The `host:port` of every tunnel it opened (after its credentials were checked). */
  tunnels: string[];
  /** Ends the open tunnels and stops listening. */
  close(): Promise<void>;
}

/**
 * A real HTTP proxy on loopback, like the corporate proxies merchants put in front of the service: it tunnels
 * (CONNECT) and refuses plain requests (absolute-form, as a proxy gets them without a tunnel: 502, or the refusal
 * its options ask for), and records each request it got.
 */
export async function startConnectProxy({ credentials, forbid }: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const received: string[] = [];
  const tunnels: string[] = [];
  const expected = credentials && `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  const refusal = (request: IncomingMessage) =>
    forbid ? '403 Forbidden' : expected && request.headers['proxy-authorization'] !== expected ? '407 Proxy Authentication Required' : undefined;
  // A tunnel's sockets are no longer the HTTP server's: closing the proxy ends them here.
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    const refused = refusal(request);
    // Forwarding plain HTTP is not needed by the tests: they send it only to be refused.
    response.writeHead(refused ? Number(refused.slice(0, 3)) : 502, refused ? { 'Proxy-Authenticate': 'Basic' } : {}).end();
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    received.push(`CONNECT ${request.url}`);
    track(client);
    const refused = refusal(request);
    if (refused) return void client.end(`HTTP/1.1 ${refused}\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n`);
    tunnels.push(request.url ?? '');
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    track(upstream);
    for (const socket of [client, upstream]) socket.on('error', () => (socket === client ? upstream : client).destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
