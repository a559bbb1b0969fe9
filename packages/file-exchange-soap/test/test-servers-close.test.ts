import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTestCertificates, type TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileServer } from './support/hostile-server.js';
import { startScriptedServer } from './support/scripted-server.js';

// The test servers' close() must end a connection whose TLS handshake never finished (a client that gave up
// mid-handshake on a loaded machine): Node's own close() waits for it until its 120 s handshake timeout.

let dir: string;
let certificates: TestCertificates;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-servers-close-'));
  certificates = await generateTestCertificates(join(dir, 'certs'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('test servers: close() ends connections still in their TLS handshake', () => {
  it.each([
    { server: 'scripted', start: async () => { const s = await startScriptedServer(certificates); return { url: s.baseUrl, close: s.close }; } },
    { server: 'hostile', start: async () => { const s = await startHostileServer(certificates); return { url: s.origin, close: s.close }; } },
  ])('$server server', async ({ start }) => {
    const server = await start();
    // A raw connection that never sends its ClientHello: accepted, its handshake never done.
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    const ended = once(socket, 'close');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      server.close().then(() => 'closed'),
      new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 10 s'), 10_000))),
    ]);
    clearTimeout(timer);
    socket.destroy();
    expect(outcome).toBe('closed');
    await ended;
  });
});
