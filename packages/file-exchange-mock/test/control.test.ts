// The mock's control interface against its contract (specs/file-exchange-mock-control): the generated client drives
// every operation, injected faults reach the REST operations as the contract says (before or after the work), a fault
// the operation cannot do is refused, and only a caller with the client certificate, not a web page, gets through.
import type { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { controlOperations } from '../src/generated/control/client.js';
import { createFileExchangeMockControl, MockControlError, startFileExchangeMock, type FileExchangeMock, type FileExchangeMockControl, type TestCertificates } from '../src/index.js';
import { agentFor, send, suiteCertificates } from './helpers.js';

let mock: FileExchangeMock;
let agent: Agent;
let control: FileExchangeMockControl;
let cleanup: () => Promise<void>;
let certificates: TestCertificates;

beforeAll(async () => {
  const made = suiteCertificates();
  cleanup = made.cleanup;
  certificates = made.certificates;
  mock = await startFileExchangeMock({ certificates: made.certificates });
  agent = await agentFor(made.certificates, 'client-pfx');
  control = createFileExchangeMockControl(mock.restUrl, { dispatcher: agent });
});

afterAll(async () => {
  await mock?.close();
  await agent?.close();
  await cleanup?.();
});

beforeEach(async () => {
  await control.clearFaults();
});

const list = () => send(agent, `${mock.restUrl}/filesForDownload/`, { headers: { accept: 'text/plain' } });
const upload = (name: string) => send(agent, `${mock.restUrl}/uploadedFiles/${name}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });

describe('file exchange mock control interface: the contract', () => {
  it('serves the operations of its contract at the address the mock reports', () => {
    expect(Object.keys(controlOperations).sort()).toEqual(['clearFaults', 'getFaults', 'injectFault']);
    expect(mock.controlUrl).toBe(`${new URL(mock.restUrl).origin}/__mock`);
  });

  it('injects a fault for the next requests of an operation, shows it waiting, then applied, then clears', async () => {
    const injected = await control.injectFault({ fault: { status: 503 }, count: 2, operationId: 'listFilesForDownload' });
    expect(injected).toEqual({ pending: [1, 2].map(() => ({ fault: { status: 503, when: 'before' }, count: 1, operationId: 'listFilesForDownload' })) });
    expect((await list()).status).toBe(503);
    expect((await list()).status).toBe(503);
    expect((await list()).status).toBe(204);
    expect(await control.getFaults()).toEqual({ pending: [], applied: { '503 before': 2 } });
    await control.clearFaults();
    expect(await control.getFaults()).toEqual({ pending: [], applied: {} });
  });

  it.each([
    { fault: { status: 500 }, when: 'after', stored: true, status: 500 },
    { fault: { status: 503 }, when: 'before', stored: false, status: 503 },
  ])('an upload with $fault fails $when storing the file', async ({ fault, when, stored, status }) => {
    const before = mock.store.uploads().length;
    await control.injectFault({ fault, operationId: 'uploadFile' });
    expect((await upload(`fault-${status}.txt`)).status).toBe(status);
    expect(mock.store.uploads().length - before).toBe(stored ? 1 : 0);
    expect((await control.getFaults()).applied).toEqual({ [`${status} ${when}`]: 1 });
  });

  it.each([
    { what: 'a timing the operation cannot do', rule: { fault: { status: 503, when: 'after' }, operationId: 'listFilesForDownload' }, says: 'fails before' },
    { what: 'a drop before an upload is stored', rule: { fault: { drop: 'before' }, operationId: 'uploadFile' }, says: 'fails after' },
    { what: 'an operation the mock does not have', rule: { fault: { status: 503 }, operationId: 'getFacility' }, says: 'operationId must be one of' },
    { what: 'no operation', rule: { fault: { status: 503 } }, says: 'operationId' },
    { what: 'a count below one', rule: { fault: { status: 503 }, count: 0, operationId: 'deleteFile' }, says: 'count' },
    { what: 'a status that is no error', rule: { fault: { status: 200 }, operationId: 'deleteFile' }, says: 'fault must be' },
    { what: 'a field the contract does not have', rule: { fault: { status: 503 }, operationId: 'deleteFile', extra: 1 }, says: 'extra' },
  ])('refuses $what with 400 and says why, injecting nothing', async ({ rule, says }) => {
    const failure = await control.injectFault(rule as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MockControlError);
    expect(failure).toMatchObject({ status: 400, message: expect.stringContaining(says) });
    expect((await control.getFaults()).pending).toEqual([]);
  });

  it.each([
    { request: 'GET /__mock/nothing', method: 'GET' as const, path: '/__mock/nothing', status: 404 },
    { request: 'POST /__mock/faults/1', method: 'POST' as const, path: '/__mock/faults/1', status: 404 },
  ])('serves nothing else: $request gets $status', async ({ method, path, status }) => {
    const response = await send(agent, `${new URL(mock.restUrl).origin}${path}`, { method });
    expect(response.status).toBe(status);
  });
});

describe('file exchange mock control interface: who may use it', () => {
  const faultsUrl = () => `${mock.controlUrl}/faults`;
  const rule = JSON.stringify({ fault: { status: 503 }, operationId: 'deleteFile' });

  it.each([
    { who: 'a web page (any Origin)', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, status: 403, says: 'web page' },
    { who: 'a form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, says: 'application/json' },
    { who: 'a multipart form', headers: { 'content-type': 'multipart/form-data; boundary=x' }, status: 415, says: 'application/json' },
    { who: 'plain text', headers: { 'content-type': 'text/plain' }, status: 415, says: 'application/json' },
  ] as { who: string; headers: Record<string, string>; status: number; says: string }[])('refuses $who with $status and injects nothing', async ({ headers, status, says }) => {
    const response = await send(agent, faultsUrl(), { method: 'POST', headers, body: rule });
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body.toString()).error).toContain(says);
    expect((await control.getFaults()).pending).toEqual([]);
  });

  it.each(['none', 'foreign'] as const)('refuses a caller with client certificate %s with 403 and injects nothing', async (identity) => {
    const stranger = await agentFor(certificates, identity);
    try {
      const response = await send(stranger, faultsUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: rule });
      expect(response.status).toBe(403);
      expect(response.body.toString()).toContain('client certificate not accepted');
      expect((await control.getFaults()).pending).toEqual([]);
    } finally {
      await stranger.close();
    }
  });

  it('a mock without TLS has no control interface', async () => {
    const plain = await startFileExchangeMock({ tls: false });
    try {
      expect(plain.controlUrl).toBeUndefined();
      expect((await send(undefined, `${new URL(plain.restUrl).origin}/__mock/faults`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
