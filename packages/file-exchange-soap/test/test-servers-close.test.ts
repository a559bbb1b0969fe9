import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHostileServer } from './support/hostile-server.js';
import { startScriptedServer } from './support/scripted-server.js';

// The test servers' close() must end a connection whose TLS handshake never finished (a client that gave up
// mid-handshake on a loaded machine): Node's own close() waits for it until its 120 s handshake timeout.

let dir: string;
let certificates: TestCertificates;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-servers-close-'));
  certificates = inject('certificates');
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
      // A bound on a close() that hangs, shorter than the test's own timeout so that the failure says so; a close()
      // that works resolves long before it, however loaded the machine.
      // real-time: a bound on a hung close() only
      new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 4 s'), 4_000))),
    ]);
    clearTimeout(timer);
    socket.destroy();
    expect(outcome).toBe('closed');
    await ended;
  });
});
