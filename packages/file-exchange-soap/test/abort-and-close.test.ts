import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbortedError } from '@paykit/file-exchange';
import { generateTestCertificates, type TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, stallMidBody, startHostileServer, stopReading, type Behaviour } from './support/hostile-server.js';
import { byInterface, emptyList, restWarm, scopedClients, soapWarm, warmUp, type Clients } from './support/scoped-clients.js';

// Every call of both clients takes a signal and close() ends what is pending: each ends with AbortedError naming the
// operation, the signal's reason as its cause, in each phase (before sending, body in or out, the wait to retry).

const NS = 'urn:paykit:file-exchange:v1';
const xml = { 'content-type': 'text/xml; charset=utf-8' };
const text = { 'content-type': 'text/plain' };
const partialSoap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>QUJD`;

let dir: string;
let certificates: TestCertificates;
let server: Awaited<ReturnType<typeof startHostileServer>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-abort-'));
  certificates = await generateTestCertificates(join(dir, 'certs'));
  server = await startHostileServer(certificates);
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Retries that wait a minute, so that only the abort can end the wait; no stall timeout, so only the abort ends a stall. */
const waiting = { intervalMs: 60_000, maxDurationMs: 600_000, allowShortIntervals: true };
/**
 * Both clients on a scope of the server of their own: a behaviour is taken only by the row's call, over the connection
 * a first call warmed (its TLS handshake done, so the abort lands in the phase the row is about); a request another
 * row gave up on that reaches the server late cannot take it.
 */
const scoped = (token: string) => scopedClients(server, certificates, token, emptyList, { retry: waiting, stallTimeoutMs: 0 });
/** Warms the connection of the client `call` uses, then scripts `behaviour` for the call's request. */
async function script(scoped: Awaited<ReturnType<typeof scopedClients>>, call: string, behaviour: Behaviour) {
  await warmUp(() => (call.startsWith('SOAP') ? soapWarm : restWarm)(scoped.clients));
  scoped.scope.next(behaviour);
}
/** The requests that took a scripted behaviour (see `script`), once the server saw them: the row's call, once. */
const tookItsBehaviour = (scope: Awaited<ReturnType<typeof scopedClients>>['scope']) =>
  expect.poll(() => scope.requests.filter((request) => request.reusedConnection), { timeout: 10_000 }).toHaveLength(1);
const big = Buffer.alloc(16 * 1024 * 1024, 1);

type Phase = 'before sending' | 'body in' | 'body out' | 'retry wait';
interface Row {
  call: string;
  phase: Phase;
  operation: string;
  run: (clients: Clients, signal: AbortSignal) => Promise<unknown>;
}

const behaviourFor: Record<Phase, (soap: boolean) => Behaviour | undefined> = {
  'before sending': () => undefined,
  'body in': (soap) => (soap ? stallMidBody(xml, partialSoap) : stallMidBody(text, 'A.csv\nB')),
  'body out': () => stopReading,
  'retry wait': (soap) => (soap ? answer(500, text, 'busy') : answer(500)),
};

const rows: Row[] = (['before sending', 'body in', 'retry wait'] as const).flatMap((phase): Row[] => [
  { call: 'REST list', phase, operation: 'listFilesForDownload', run: ({ rest }, signal) => rest.list({ signal }) },
  { call: 'REST download', phase, operation: 'downloadFile', run: ({ rest }, signal) => rest.download('A.csv', { signal }).then((file) => file.body.toArray()) },
  { call: 'REST downloadToFile', phase, operation: 'downloadFile', run: ({ rest }, signal) => rest.downloadToFile('A.csv', join(dir, 'A.csv'), { signal }) },
  { call: 'SOAP downloadFiles', phase, operation: 'downloadFiles', run: ({ soap }, signal) => soap.downloadFiles('Q1', { signal }) },
  {
    call: 'SOAP downloadAll',
    phase,
    operation: 'downloadAll',
    run: async ({ soap }, signal) => {
      for await (const file of soap.downloadAll('Q1', { signal })) void file;
    },
  },
  {
    call: 'SOAP downloadAllToFolder',
    phase,
    operation: 'downloadAll',
    run: async ({ soap }, signal) => {
      for await (const file of soap.downloadAllToFolder('Q1', dir, { signal })) void file;
    },
  },
]).concat(
  (['before sending', 'body out', 'retry wait'] as const).flatMap((phase): Row[] => [
    { call: 'REST upload', phase, operation: 'uploadFile', run: ({ rest }, signal) => rest.upload('U.csv', big, { signal }) },
    { call: 'REST delete', phase, operation: 'deleteFile', run: ({ rest }, signal) => rest.delete('A.csv', { signal }) },
    { call: 'SOAP uploadFile', phase, operation: 'uploadFile', run: ({ soap }, signal) => soap.uploadFile({ fileID: 'U1', fileContent: big }, { signal }) },
  ]),
);

describe('abort: every call takes a signal', () => {
  it.each(rows.map((row, index) => ({ ...row, token: `abort-${index}` })))('$call, aborted $phase → AbortedError ($operation)', async (row) => {
    const both = await scoped(row.token);
    try {
      const behaviour = behaviourFor[row.phase](row.call.startsWith('SOAP'));
      // DELETE has no body to stall: it waits for an answer that never comes.
      if (behaviour) await script(both, row.call, row.phase === 'body out' && row.call === 'REST delete' ? stopReading : behaviour);
      const controller = new AbortController();
      const reason = new Error('operator stop');
      if (row.phase === 'before sending') controller.abort(reason);
      else setTimeout(() => controller.abort(reason), 400);
      const error = await row.run(both.clients, controller.signal).then(() => new Error('no error'), (thrown: unknown) => thrown);
      const seen = `requests the server saw: ${JSON.stringify(both.scope.requests)}`;
      expect(error, seen).toBeInstanceOf(AbortedError);
      expect(error, seen).toMatchObject({ name: 'AbortedError', operation: row.operation, retryable: false, cause: reason });
      if (behaviour) await tookItsBehaviour(both.scope);
      else expect(both.scope.requests).toEqual([]);
    } finally {
      await both.close();
    }
  });

  it('leaves no .part file behind when a folder download is aborted mid-body', async () => {
    const folder = await mkdtemp(join(dir, 'folder-'));
    const both = await scoped('abort-part');
    try {
      await script(both, 'SOAP', stallMidBody(xml, partialSoap));
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('operator stop')), 300);
      await expect(both.clients.soap.downloadFilesToFolder('Q1', folder, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
      expect(await readdir(folder)).toEqual([]);
      await tookItsBehaviour(both.scope);
    } finally {
      await both.close();
    }
  });
});

describe('close() ends what is pending', () => {
  it.each([
    { call: 'REST download mid-body', soap: false, run: (c: Clients) => c.rest.download('A.csv').then((f) => f.body.toArray()), operation: 'downloadFile' },
    { call: 'SOAP downloadFiles mid-body', soap: true, run: (c: Clients) => c.soap.downloadFiles('Q1'), operation: 'downloadFiles' },
    { call: 'REST list in its retry wait', soap: false, wait: true, run: (c: Clients) => c.rest.list(), operation: 'listFilesForDownload' },
    { call: 'SOAP downloadFiles in its retry wait', soap: true, wait: true, run: (c: Clients) => c.soap.downloadFiles('Q1'), operation: 'downloadFiles' },
  ].map((row, index) => ({ ...row, token: `close-${index}` })))('$call → AbortedError ($operation)', async (row) => {
    const both = await scoped(row.token);
    try {
      await script(both, row.call, row.wait ? behaviourFor['retry wait'](row.soap)! : behaviourFor['body in'](row.soap)!);
      const pending = row.run(both.clients).then(() => new Error('no error'), (thrown: unknown) => thrown);
      setTimeout(() => void both.close(), 400);
      const error = await pending;
      const seen = `requests the server saw: ${JSON.stringify(both.scope.requests)}`;
      expect(error, seen).toBeInstanceOf(AbortedError);
      expect(error, seen).toMatchObject({ operation: row.operation, cause: new Error('the client was closed') });
      await tookItsBehaviour(both.scope);
    } finally {
      await both.close();
    }
  });

  it('lets the process exit by itself once its calls were aborted or closed (no timer or socket left)', async () => {
    // Every request of a scope gets its behaviour: the calls that wait get a 500, those that stall a body that stops.
    const waitingScope = server.scope('exit-waiting', byInterface(answer(500), answer(500, text, 'busy')));
    const stallingScope = server.scope('exit-stalling', byInterface(stallMidBody(text, 'partial'), stallMidBody(xml, partialSoap)));
    const child = fileURLToPath(new URL('./support/abort-child.ts', import.meta.url));
    const urls = ({ restUrl, soapUrl }: { restUrl: string; soapUrl: string }) => ({ restUrl, soapUrl });
    const input = { waiting: urls(waitingScope), stalling: urls(stallingScope), pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPem };
    // The pending waits are 5 minutes (retry) and 2 minutes (stall): a process still alive 60 s after its last call
    // ended kept one of them. The clock starts at its report, not at the spawn: compiling the child with tsx took
    // most of a minute on a loaded CI machine.
    const { stdout, exitedAfterReportMs, code } = await runUntilExit(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, PAYKIT_CHILD_INPUT: JSON.stringify(input) },
      exitWithinMs: 60_000,
    });
    expect(code).toBe(0);
    expect(exitedAfterReportMs).toBeLessThan(60_000);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([
      'REST list, abort in the retry wait: AbortedError listFilesForDownload',
      'SOAP downloadFiles, abort in the retry wait: AbortedError downloadFiles',
      'REST download, close() mid-body: AbortedError downloadFile',
      'SOAP downloadFiles, close() mid-body: AbortedError downloadFiles',
    ]);
    // Each call that waits sent one request, and the retry it waited for never came.
    expect(waitingScope.requests.map(({ method, path }) => `${method} ${path.replace(/^\/exit-waiting/, '')}`)).toEqual([
      'GET /services/messaging/rest/filesForDownload/',
      'POST /services/messaging/DownloadFiles',
    ]);
  }, 300_000);
});

/**
 * Runs a child until it exits by itself, or until `exitWithinMs` after its first line of output (then kills it):
 * resolves with its output, its exit code and how long after that line it exited.
 */
async function runUntilExit(command: string, args: string[], options: { env: NodeJS.ProcessEnv; exitWithinMs: number }) {
  const child = spawn(command, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let reportedAt: number | undefined;
  let killer: NodeJS.Timeout | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (reportedAt === undefined && stdout.includes('\n')) {
      reportedAt = performance.now();
      killer = setTimeout(() => child.kill('SIGKILL'), options.exitWithinMs + 5_000);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);
  if (reportedAt === undefined) throw new Error(`the child printed nothing (exit ${code}):\n${stderr}`);
  return { stdout, stderr, code, exitedAfterReportMs: performance.now() - reportedAt };
}
