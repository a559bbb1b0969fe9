// end-to-end: the payments sandbox, the file exchange mock over client-certificate TLS and the paykit-files command as a real process provoke every error the guide names.
// The troubleshooting guide names error classes, payments error kinds, webhook failure reasons, processAll stages,
// paykit-files exit statuses and parts of messages. Each is checked against the real packages: classes against what
// they export, and everything else against errors provoked here for real (the payments sandbox, the stateful file
// exchange over client-certificate TLS, the webhook verifier, the paykit-files command). A name the packages do not
// have fails the test.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as fileExchange from '@paykit/file-exchange';
import * as fileExchangeSoap from '@paykit/file-exchange-soap';
import { generateTestCertificates, startFileExchangeMock, startPaymentsSandbox, type FileExchangeMock, type PaymentsSandbox, type TestCertificates } from '@paykit/mock-server';
import * as payments from '@paykit/payments';
import * as webhooks from '@paykit/payments/webhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const guideSource = '11-troubleshooting.md';
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Names {
  classes: string[];
  kinds: string[];
  reasons: string[];
  stages: string[];
  messages: string[];
  exitStatuses: number[];
}

const all = (markdown: string, pattern: RegExp) => [...new Set([...markdown.matchAll(pattern)].map((m) => oneLine(m[1] ?? '')))];

/** What a guide names, by the phrasing the troubleshooting guide uses for each. */
export function namesIn(markdown: string): Names {
  return {
    classes: all(markdown, /`([A-Z]\w*Error)`/g),
    kinds: all(markdown, /\bkind(?: is)? `([^`]+)`/gi),
    reasons: all(markdown, /\breason `([^`]+)`/g),
    stages: all(markdown, /\bstage `([^`]+)`/g),
    messages: all(markdown, /\bmessage\s+`([^`]+)`/g),
    exitStatuses: all(markdown, /\bexit\s+status\s+`(\d+)`/g).map(Number),
  };
}

interface Known {
  classes: Set<string>;
  kinds: Set<string>;
  reasons: Set<string>;
  stages: Set<string>;
  messages: string[];
  exitStatuses: Set<number>;
}

/** Every name of `names` the packages do not have, as `<what> <name>`. */
function unknownNames(names: Names, known: Known): string[] {
  return [
    ...names.classes.filter((n) => !known.classes.has(n)).map((n) => `class ${n}`),
    ...names.kinds.filter((n) => !known.kinds.has(n)).map((n) => `kind ${n}`),
    ...names.reasons.filter((n) => !known.reasons.has(n)).map((n) => `reason ${n}`),
    ...names.stages.filter((n) => !known.stages.has(n)).map((n) => `stage ${n}`),
    ...names.messages.filter((n) => !known.messages.some((m) => oneLine(m).includes(n))).map((n) => `message ${n}`),
    ...names.exitStatuses.filter((n) => !known.exitStatuses.has(n)).map((n) => `exit status ${n}`),
  ];
}

/** The error classes a module exports. */
const errorClasses = (module: Record<string, unknown>) =>
  Object.entries(module)
    .filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error)
    .map(([name]) => name);

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

const run = promisify(execFile);
const cli = join(paths.packages, 'file-exchange', 'dist', 'cli', 'main.js');
async function exitStatusOf(args: string[], env: Record<string, string>): Promise<number> {
  try {
    await run(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}

const known: Known = { classes: new Set(), kinds: new Set(), reasons: new Set(), stages: new Set(), messages: [], exitStatuses: new Set() };
let sandbox: PaymentsSandbox;
let mock: FileExchangeMock;
let certificates: TestCertificates;
let foreign: TestCertificates;
let dir: string;

function record(error: Error): void {
  known.messages.push(error.message);
  if (error.cause instanceof Error) known.messages.push(error.cause.message);
  if (payments.isPaymentsError(error)) known.kinds.add(error.kind);
  if (error instanceof webhooks.WebhookVerificationError) known.reasons.add(error.reason);
}

async function provokePayments(): Promise<void> {
  sandbox = await startPaymentsSandbox({
    keys: { secret: [{ key: 'restricted-secret-key', businesses: ['TEST_BUSINESS'] }], publishable: ['docs-publishable-key'] },
    businesses: [{ supplierBusinessCode: 'TEST_BUSINESS' }, { supplierBusinessCode: 'OTHER_BUSINESS' }],
  });
  const options = { baseUrl: sandbox.url, retry: { maxRetries: 0 } };
  const secret = payments.createSecretClient({ apiKey: 'restricted-secret-key', ...options });
  const wrongKey = payments.createSecretClient({ apiKey: 'not-a-key', ...options });
  const wrongType = payments.createSecretClient({ apiKey: 'docs-publishable-key', ...options });
  record(await failure(wrongKey.facility.get()));
  record(await failure(wrongType.facility.get()));
  record(await failure(secret.businesses.get('OTHER_BUSINESS')));
  await sandbox.control.injectFault({ fault: { status: 429 }, operationId: 'getFacility' });
  record(await failure(secret.facility.get()));
  record(await failure(secret.customers.create({ customerName: '', customerNumber: 'x'.repeat(300) } as never)));
  const closed = payments.createSecretClient({ apiKey: 'any', baseUrl: 'http://127.0.0.1:9/rest/v1', retry: { maxRetries: 0 } });
  record(await failure(closed.facility.get()));
  // The status kinds of the package, for every status the service may send.
  for (let status = 300; status < 600; status++) known.kinds.add(payments.errorKindOfStatus(status));
}

async function provokeWebhooks(): Promise<void> {
  const secret = 'whsec_docs';
  const event = { id: 'n1', timestamp: '2026-11-21T10:00:00Z', eventType: 'alias.registered', data: { id: 'a1' } };
  const signed = webhooks.signTestPayload(event, { secret });
  const old = webhooks.signTestPayload(event, { secret, timestamp: Date.now() - 3_600_000 });
  const unknownEvent = webhooks.signTestPayload({ ...event, eventType: 'alias.unknown' }, { secret });
  const notJson = webhooks.signTestPayload('not json', { secret });
  const attempts: (() => unknown)[] = [
    () => webhooks.constructWebhookEvent(signed.body, undefined, { secret }),
    () => webhooks.constructWebhookEvent(signed.body, 'v1=zz', { secret }),
    () => webhooks.constructWebhookEvent(old.body, old.header, { secret }),
    () => webhooks.constructWebhookEvent(signed.body, signed.header, { secret: 'whsec_other' }),
    () => webhooks.constructWebhookEvent(JSON.parse(signed.body) as never, signed.header, { secret }),
    () => webhooks.constructWebhookEvent(notJson.body, notJson.header, { secret }),
    () => webhooks.constructWebhookEvent(unknownEvent.body, unknownEvent.header, { secret }),
    () => webhooks.constructWebhookEvent(signed.body, signed.header, { secret: '' }),
  ];
  for (const attempt of attempts) record(await failure(attempt));
}

async function provokeFileExchange(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'paykit-troubleshooting-'));
  [certificates, foreign] = await Promise.all([generateTestCertificates(join(dir, 'certs')), generateTestCertificates(join(dir, 'foreign'))]);
  // The limit of downloads per file is lowered so the test need not download a file 50 times; the client's error is
  // the same.
  mock = await startFileExchangeMock({ restPort: 0, soapPort: 0, certificates, maxDownloadAttempts: 2 });
  const retry = { intervalMs: 10, maxDurationMs: 300, allowShortIntervals: true };
  const tls = { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPath };

  record(await failure(fileExchange.createFileExchangeClient({ baseUrl: mock.restUrl, tls: { ...tls, passphrase: 'wrong' } })));
  const refused = await fileExchange.createFileExchangeClient({ baseUrl: mock.restUrl, tls: { pfx: foreign.clientPfxPath, passphrase: foreign.clientPfxPassword, ca: certificates.caCertPath }, retry });
  record(await failure(refused.list()));
  await refused.close();

  const client = await fileExchange.createFileExchangeClient({ baseUrl: mock.restUrl, tls, retry });
  try {
    mock.store.failNext('list', { status: 403 });
    record(await failure(client.list()));
    mock.store.enqueueDownload({ fileName: 'limit_001.txt', content: Buffer.from('x') });
    const limit = await failure(async () => {
      for (;;) await client.download('limit_001.txt');
    });
    record(limit);
    await client.delete('limit_001.txt');

    // One file per stage of processAll that can fail.
    for (const name of ['a_download.txt', 'b_handler.txt', 'c_delete.txt']) mock.store.enqueueDownload({ fileName: name, content: Buffer.from(name) });
    mock.store.failNext('download', { status: 404 });
    const report = await client.processAll(
      async (file) => {
        if (file.name === 'b_handler.txt') throw new Error('handler failed');
        if (file.name === 'c_delete.txt') mock.store.failNext('delete', { status: 400 }); // a status delete does not expect: not retried, not fatal
      },
      { ledger: new fileExchange.FileLedger(join(dir, 'ledger.txt')) },
    );
    for (const failed of report.failed) known.stages.add(failed.stage);
    // A ledger that cannot record (a full disk, say).
    const unwritable: fileExchange.ProcessedFileLedger = { has: async () => false, record: async () => Promise.reject(new Error('ENOSPC')) };
    // It stops the run after reporting the file (the files after it would be handled and not recorded).
    const stopped = await client
      .processAll(async () => {}, { ledger: unwritable, onFile: (outcome) => void (outcome.result === 'failed' && known.stages.add(outcome.stage)) })
      .then(() => 'not stopped', (error: unknown) => error);
    expect(stopped).toMatchObject({ message: 'ENOSPC' });
  } finally {
    await client.close();
  }

  // paykit-files: a configuration mistake, a refusal by the service, and a failing processing command.
  const env = {
    PAYKIT_FILES_BASE_URL: mock.restUrl,
    PAYKIT_FILES_CERT_FILE: certificates.clientPfxPath,
    PAYKIT_FILES_CERT_PASSWORD: certificates.clientPfxPassword,
    PAYKIT_FILES_CA_FILE: certificates.caCertPath,
    PAYKIT_FILES_RETRY_INTERVAL: '0.01',
  };
  known.exitStatuses.add(await exitStatusOf(['list'], { ...env, PAYKIT_FILES_CERT_PASSWORD: 'wrong' }));
  mock.store.failNext('list', { status: 403 });
  known.exitStatuses.add(await exitStatusOf(['list'], env));
  mkdirSync(join(dir, 'cli'));
  mock.store.enqueueDownload({ fileName: 'cli_001.txt', content: Buffer.from('x') });
  known.exitStatuses.add(await exitStatusOf(['download', '--exec', 'exit 3', '--ledger', join(dir, 'cli', 'ledger.txt')], env));
}

beforeAll(async () => {
  for (const module of [payments, webhooks, fileExchange, fileExchangeSoap]) for (const name of errorClasses(module)) known.classes.add(name);
  await Promise.all([provokePayments(), provokeWebhooks(), provokeFileExchange()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), mock?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the troubleshooting guide against the packages', () => {
  const guide = readGuides().find((g) => g.source === guideSource);
  const names = namesIn(guide?.markdown ?? '');

  it('names classes, kinds, reasons, stages, messages and exit statuses', () => {
    expect(guide, guideSource).toBeDefined();
    for (const [what, list] of Object.entries(names)) expect(list.length, what).toBeGreaterThan(0);
  });

  it('the provocations produced what they were meant to', () => {
    expect([...known.kinds]).toEqual(expect.arrayContaining(['authentication', 'permission', 'notFound', 'rateLimit', 'request', 'network', 'input']));
    expect([...known.reasons].sort()).toEqual(
      ['malformed-body', 'malformed-signature', 'missing-signature', 'parsed-body', 'signature-mismatch', 'timestamp-outside-tolerance', 'unknown-event-type'].sort(),
    );
    expect([...known.stages].sort()).toEqual(['delete', 'download', 'handler', 'ledger']);
    expect([...known.exitStatuses].sort()).toEqual([1, 2, 3]);
  });

  it('every name and message of the guide is one the packages have', () => {
    expect(unknownNames(names, known)).toEqual([]);
  });

  it('a name the packages do not have fails the check', () => {
    const invented = namesIn(
      [
        'The client throws `MadeUpError` of kind `teapot`, with reason `bad-vibes` at stage `upload`,',
        'message `the moon is not aligned`, and the command ends with exit status `7`.',
        'A real one: `PaymentsError` of kind `authentication`, message `failed with HTTP 401 (authentication)`.',
      ].join('\n'),
    );
    expect(unknownNames(invented, known)).toEqual([
      'class MadeUpError',
      'kind teapot',
      'reason bad-vibes',
      'stage upload',
      'message the moon is not aligned',
      'exit status 7',
    ]);
  });
});
