import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AbortedError, FileExchangeClient } from '@paykit/file-exchange';
import { FileExchangeSoapClient } from '../src/index.js';
import { describe, expect, it } from 'vitest';
import { answer, bodySent, stallMidBody, startSilentServer, stopReadingThen, type Behaviour } from './support/hostile-server.js';
import { hostileSuite, xml, text, partialSoap } from './support/hostile-suite.js';
import { emptyList, restWarm, scopedClients, soapWarm, warmUp, type Clients } from './support/scoped-clients.js';

// Every call of both clients takes a signal and close() ends what is pending: each ends with AbortedError naming the
// operation, the signal's reason as its cause, in each phase (before sending, body in or out, the wait to retry).
// Each abort comes when its phase is reached, an event: the request's head at the server (the body is going out),
// the first bytes of the answer at the client (the body is coming in), the client's onRetry (the wait begins).

const suite = hostileSuite('paykit-abort-');

/** The moment a row's phase is reached: a promise resolved by the server's behaviour or the client's onRetry. */
interface Moment {
  reached: Promise<void>;
  reach: () => void;
}
function moment(): Moment {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

/**
 * Retries that wait a minute, so that only the abort can end the wait, and that tell `retrying` when the wait begins;
 * no stall timeout, so that only the abort ends a stall.
 */
const waiting = (retrying: Moment) => ({ intervalMs: 60_000, maxDurationMs: 600_000, allowShortIntervals: true, onRetry: () => retrying.reach() });
/**
 * Both clients on a scope of the server of their own: a behaviour is taken only by the row's call, over the connection
 * a first call warmed (its TLS handshake done, so the abort lands in the phase the row is about); a request another
 * row gave up on that reaches the server late cannot take it.
 */
const scoped = (token: string, retrying: Moment = moment()) =>
  scopedClients(suite.server, suite.certificates, token, emptyList, { retry: waiting(retrying), stallTimeoutMs: 0 });
/** Warms the connection of the client `call` uses, then scripts `behaviour` for the call's request. */
async function script(scoped: Awaited<ReturnType<typeof scopedClients>>, call: string, behaviour: Behaviour) {
  await warmUp(() => (call.startsWith('SOAP') ? soapWarm : restWarm)(scoped.clients));
  scoped.scope.next(behaviour);
}
/** The requests that took a scripted behaviour (see `script`), once the server saw them: the row's call, once. */
const tookItsBehaviour = (scope: Awaited<ReturnType<typeof scopedClients>>['scope']) =>
  expect.poll(() => scope.requests.filter((request) => request.reusedConnection), { timeout: 4_000 }).toHaveLength(1);
const big = Buffer.alloc(16 * 1024 * 1024, 1);

type Phase = 'before sending' | 'body in' | 'body out' | 'retry wait';
interface Row {
  call: string;
  phase: Phase;
  operation: string;
  run: (clients: Clients, signal: AbortSignal) => Promise<unknown>;
}

/** The server's part of a phase, which tells `reached` when the phase comes (the retry wait is told by onRetry). */
const behaviourFor: Record<Phase, (soap: boolean, reached: Moment) => Behaviour | undefined> = {
  'before sending': () => undefined,
  'body in': (soap, reached) => {
    const sent = bodySent();
    void sent.reached.then(reached.reach);
    return soap ? stallMidBody(xml, partialSoap, sent.onSent) : stallMidBody(text, 'A.csv\nB', sent.onSent);
  },
  // DELETE has no body to stall: it waits for an answer that never comes, from a request that reached the server.
  'body out': (_, reached) => stopReadingThen(reached.reach),
  'retry wait': (soap) => (soap ? answer(500, text, 'busy') : answer(500)),
};

const rows: Row[] = (['before sending', 'body in', 'retry wait'] as const).flatMap((phase): Row[] => [
  { call: 'REST list', phase, operation: 'listFilesForDownload', run: ({ rest }, signal) => rest.list({ signal }) },
  { call: 'REST download', phase, operation: 'downloadFile', run: ({ rest }, signal) => rest.download('A.csv', { signal }).then((file) => file.body.toArray()) },
  { call: 'REST downloadToFile', phase, operation: 'downloadFile', run: ({ rest }, signal) => rest.downloadToFile('A.csv', join(suite.dir, 'A.csv'), { signal }) },
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
      for await (const file of soap.downloadAllToFolder('Q1', suite.dir, { signal })) void file;
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
    const reached = moment();
    const both = await scoped(row.token, reached);
    try {
      const behaviour = behaviourFor[row.phase](row.call.startsWith('SOAP'), reached);
      if (behaviour) await script(both, row.call, behaviour);
      const controller = new AbortController();
      const reason = new Error('operator stop');
      if (row.phase === 'before sending') controller.abort(reason);
      else void reached.reached.then(() => controller.abort(reason));
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
    const folder = await mkdtemp(join(suite.dir, 'folder-'));
    const both = await scoped('abort-part');
    try {
      const sent = bodySent();
      await script(both, 'SOAP', stallMidBody(xml, partialSoap, sent.onSent));
      const controller = new AbortController();
      void sent.reached.then(() => controller.abort(new Error('operator stop')));
      await expect(both.clients.soap.downloadFilesToFolder('Q1', folder, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
      expect(await readdir(folder)).toEqual([]);
      await tookItsBehaviour(both.scope);
    } finally {
      await both.close();
    }
  });
});

describe('abort in a TLS handshake that never completes', () => {
  it.each([
    { call: 'REST list', operation: 'listFilesForDownload', run: (c: Clients, signal: AbortSignal) => c.rest.list({ signal }) },
    { call: 'SOAP downloadFiles', operation: 'downloadFiles', run: (c: Clients, signal: AbortSignal) => c.soap.downloadFiles('Q1', { signal }) },
  ])('$call → AbortedError ($operation) at once', async (row) => {
    const silent = await startSilentServer();
    const tls = { pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem };
    // No stall timeout and no retry: only the abort can end the handshake's wait.
    const options = { tls, retry: false as const, stallTimeoutMs: 0 };
    const clients = {
      rest: await FileExchangeClient.create({ baseUrl: silent.restUrl, ...options }),
      soap: await FileExchangeSoapClient.create({ baseUrl: silent.soapUrl, ...options }),
    };
    try {
      const controller = new AbortController();
      const reason = new Error('operator stop');
      void silent.nextConnection().then(() => controller.abort(reason));
      const error = await row.run(clients, controller.signal).then(() => new Error('no error'), (thrown: unknown) => thrown);
      expect(error).toMatchObject({ name: 'AbortedError', operation: row.operation, cause: reason });
    } finally {
      await Promise.all([clients.rest.close(), clients.soap.close()]);
      await silent.close();
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
    const reached = moment();
    const both = await scoped(row.token, reached);
    try {
      await script(both, row.call, behaviourFor[row.wait ? 'retry wait' : 'body in'](row.soap, reached)!);
      const pending = row.run(both.clients).then(() => new Error('no error'), (thrown: unknown) => thrown);
      void reached.reached.then(() => both.close());
      const error = await pending;
      const seen = `requests the server saw: ${JSON.stringify(both.scope.requests)}`;
      expect(error, seen).toBeInstanceOf(AbortedError);
      expect(error, seen).toMatchObject({ operation: row.operation, cause: new Error('the client was closed') });
      await tookItsBehaviour(both.scope);
    } finally {
      await both.close();
    }
  });
});
