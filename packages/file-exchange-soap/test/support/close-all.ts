import type { Server } from 'node:https';
import type { Socket } from 'node:net';

/**
 * Tracks every connection `server` accepts, those still in their TLS handshake included, and returns its close():
 * stop listening, then end them all. A client that gave up during its handshake leaves the server side of it to
 * finish later, and a server that only knew its secure connections would wait on that one for ever in close() (a
 * request paused by its behaviour never reads the client's end). The raw connection and, once the handshake is
 * done, its TLS socket are both ended.
 */
export function closeAll(server: Server): () => Promise<void> {
  const connections = new Set<Socket>();
  const track = (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  };
  server.on('connection', track);
  server.on('secureConnection', track);
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of connections) socket.destroy();
    await closed;
  };
}
