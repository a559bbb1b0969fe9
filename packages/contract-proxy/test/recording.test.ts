import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replayHar, startContractProxy, type ContractProxy, type Har, type HarEntry } from '../src/index.js';
import { cardTokenRequest, paymentRequest, send } from './support/merchant.js';

const sandbox = inject('sandbox');
const accept = { accept: 'application/json' };
let dir: string;
const servers: Server[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-proxy-recording-'));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => (server.close(resolve), server.closeAllConnections()))));
  await rm(dir, { recursive: true, force: true });
});

/** A port that listens, with `handler`, until the file ends. */
async function listening(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port that listened a moment ago and no longer does. */
async function notListening(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const entriesOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as Har).log.entries;

describe('a recording to a file', () => {
  let proxy: ContractProxy;
  const file = () => join(dir, 'session.har');
  beforeAll(async () => {
    proxy = await startContractProxy({ upstream: sandbox.url, record: { file: file() }, secretKeys: [sandbox.secretKey] });
  });
  afterAll(() => proxy?.close());

  it('holds each exchange before its answer reaches the client: a kill right after an answer loses nothing', async () => {
    for (let round = 1; round <= 20; round++) {
      const answer = await send(proxy.url, 'GET', '/transactions', { key: sandbox.secretKey, headers: accept });
      expect(answer.status).toBe(200);
      // Read at once, synchronously, with no flush: what a SIGKILL now would leave.
      expect(entriesOf(file()).map((entry) => entry._paykitExchange)).toEqual(Array.from({ length: round }, (_, i) => i + 1));
    }
  });

  it('names each entry’s exchange, key alias and type, and no key', async () => {
    const text = readFileSync(file(), 'utf8');
    expect(text).not.toContain(sandbox.secretKey);
    expect(entriesOf(file())[0]).toMatchObject({ _paykitExchange: 1, _paykitOperation: 'listTransactions', _paykitKey: { alias: 'key-1', type: 'secret' } });
  });
});

describe('a start that fails', () => {
  it('leaves the recording file of an earlier session as it was (the port is tried before the file is opened)', async () => {
    const earlier = join(dir, 'earlier.har');
    const content = JSON.stringify({ log: { version: '1.2', entries: [{ kept: true }] } });
    await writeFile(earlier, content);
    const taken = await listening(() => {});
    await expect(startContractProxy({ upstream: sandbox.url, port: taken, record: { file: earlier } })).rejects.toThrow(
      `The contract proxy cannot listen on 127.0.0.1:${taken}: listen EADDRINUSE`,
    );
    expect(await readFile(earlier, 'utf8')).toBe(content);
  });
});

describe('what the service never answered', () => {
  it('a 502 of the proxy’s own (upstream down) is recorded and reported as the proxy’s, and a replay does not send it', async () => {
    const proxy = await startContractProxy({ upstream: `http://127.0.0.1:${await notListening()}/rest/v1`, record: true });
    try {
      const answer = await send(proxy.url, 'GET', '/transactions', { key: sandbox.secretKey, headers: accept });
      expect(answer.status).toBe(502);
      expect(answer.json.title).toBe('The contract proxy could not reach the service');
      const [entry] = proxy.har().log.entries as [HarEntry];
      expect(entry).toMatchObject({ _paykitAnsweredBy: 'proxy', response: { status: 502 } });
      expect(proxy.report()).toMatchObject({ exchanges: 1, unreachable: 1, statuses: {}, totals: { request: 0, answer: 0 } });
      const replayed = await replayHar(proxy.har(), { target: sandbox.url, secretKey: sandbox.secretKey });
      expect(replayed).toMatchObject({ mismatches: 0, skipped: 1, entries: [{ skipped: 'the service never answered it when it was recorded' }] });
    } finally {
      await proxy.close();
    }
  });

  it('a request refused by --strict is recorded as the proxy’s answer, with its violations', async () => {
    const proxy = await startContractProxy({ upstream: sandbox.url, record: true, strict: true });
    try {
      const token = await send(proxy.url, 'POST', '/single-use-tokens', { key: sandbox.publishableKey, headers: accept, body: cardTokenRequest() });
      expect(token.status).toBe(422);
      const [entry] = proxy.har().log.entries as [HarEntry];
      expect(entry).toMatchObject({ _paykitAnsweredBy: 'proxy', response: { status: 422 }, _paykitViolations: [{ rule: 'idempotency-key' }] });
    } finally {
      await proxy.close();
    }
  });

  it('an upstream that cuts its answer off: the client gets the proxy’s 502, and an immediate resend of the key is named retry-wait', async () => {
    const port = await listening((_request, response) => {
      response.writeHead(200, { 'content-length': '100', 'content-type': 'application/json' });
      response.write('{"part');
      response.destroy();
    });
    const proxy = await startContractProxy({ upstream: `http://127.0.0.1:${port}/rest/v1`, record: true });
    try {
      const payment = () => send(proxy.url, 'POST', '/transactions', { key: 'sk_fault', headers: { ...accept, 'idempotency-key': 'cut-1' }, body: paymentRequest('t') });
      expect((await payment()).status).toBe(502);
      expect(proxy.report().totals.answer).toBe(0);
      await payment();
      expect(proxy.report().groups).toContainEqual(expect.objectContaining({ rule: 'retry-wait', location: 'header.Idempotency-Key', exchanges: [2] }));
    } finally {
      await proxy.close();
    }
  });
});

describe('callbacks that throw', () => {
  it('leave the answer, the report and the recording whole', async () => {
    const calls = { onViolation: 0, onRecord: 0 };
    const proxy = await startContractProxy({
      upstream: sandbox.url,
      record: true,
      onViolation: () => {
        calls.onViolation += 1;
        throw new Error('the caller’s onViolation failed');
      },
      onRecord: () => {
        calls.onRecord += 1;
        throw new Error('the caller’s onRecord failed');
      },
    });
    try {
      // No Idempotency-Key: a violation, so both callbacks run.
      const answer = await send(proxy.url, 'POST', '/single-use-tokens', { key: sandbox.publishableKey, headers: accept, body: cardTokenRequest() });
      expect(answer.status).toBe(200);
      expect(answer.json.singleUseTokenId).toEqual(expect.any(String));
      expect(calls).toEqual({ onViolation: 1, onRecord: 1 });
      expect(proxy.report().groups).toEqual([expect.objectContaining({ rule: 'idempotency-key', operation: 'createSingleUseToken', count: 1 })]);
      expect(proxy.har().log.entries.map((entry) => [entry._paykitOperation, entry.response.status])).toEqual([['createSingleUseToken', 200]]);
      // The proxy still serves the next exchange.
      expect((await send(proxy.url, 'GET', '/transactions', { key: sandbox.secretKey, headers: accept })).status).toBe(200);
      expect(calls.onRecord).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});
