import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A loopback HTTP proxy that only tunnels (CONNECT), like the proxies merchants put in front of the service; with
 * `credentials` it answers 407 unless the request carries them as Basic proxy authorisation.
 */
export async function startConnectProxy(credentials?: { user: string; password: string }) {
  const tunnels: string[] = [];
  const expected = credentials ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}` : undefined;
  const sockets = new Set<Socket>();
  const server = createServer((_, response) => response.writeHead(405).end());
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    if (expected && request.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    tunnels.push(request.url ?? '');
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
