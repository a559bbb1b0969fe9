// end-to-end: a real Prism on the payments contract, the stateful file exchange over client-certificate TLS (certificates made for the run) and the payments sandbox, driven by the guides' runnable samples.
// Samples marked ```ts runnable are run against the real mocks: Prism on the payments contract (```ts runnable sandbox:
// the payments sandbox, reset before each) and the stateful file exchange (REST and SOAP over client-certificate TLS with certificates made for this run). The samples read their
// addresses and credentials from the environment variables a merchant would set, which point at the mocks here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateTestCertificates, startFileExchangeMock, startPaymentsSandbox, startPrismMock, type FileExchangeMock, type PaymentsSandbox, type RunningMock } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { extractCodeSamples, sampleFileName } from '../scripts/code-samples.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { writeSamples } from './support/type-check.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const runnable = extractCodeSamples(readGuides()).filter((sample) => sample.flags.includes('runnable'));
const dir = join(paths.docsRoot, 'test-results', 'runnable-samples');

let payments: RunningMock | undefined;
let sandbox: PaymentsSandbox | undefined;
let fileExchange: FileExchangeMock | undefined;
let certificatesDir: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  certificatesDir = mkdtempSync(join(tmpdir(), 'paykit-docs-certs-'));
  const certificates = await generateTestCertificates(certificatesDir);
  [payments, fileExchange, sandbox] = await Promise.all([
    startPrismMock({ contract: 'payments', port: 0 }),
    startFileExchangeMock({ restPort: 0, soapPort: 0, certificates }),
    // `ts runnable sandbox` samples run against the payments sandbox, which checks every answer against the contract.
    startPaymentsSandbox({ port: 0, checkResponses: true }),
  ]);
  Object.assign(process.env, {
    PAYKIT_PAYMENTS_BASE_URL: payments.url,
    PAYKIT_SECRET_KEY: 'docs-sample-secret-key',
    PAYKIT_PUBLISHABLE_KEY: 'docs-sample-publishable-key',
    PAYKIT_FILES_BASE_URL: fileExchange.restUrl,
    PAYKIT_FILES_CERT_FILE: certificates.clientPfxPath,
    PAYKIT_FILES_CERT_PASSWORD: certificates.clientPfxPassword,
    PAYKIT_FILES_CA_FILE: certificates.caCertPath,
    PAYKIT_SOAP_BASE_URL: fileExchange.soapUrl,
    PAYKIT_SOAP_QUEUE_ID: fileExchange.queueId,
  });
  // Something for the download samples to drain.
  for (const n of [1, 2, 3]) {
    fileExchange.store.enqueueDownload({
      fileName: `statement_20261121_00${n}.txt`,
      fileID: `statement-20261121-00${n}`,
      mimeType: 'text/plain',
      content: Buffer.from(`statement ${n}\n`),
    });
  }
  writeSamples(runnable, dir);
});

afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([payments?.close(), fileExchange?.close(), sandbox?.close()]);
  rmSync(certificatesDir, { recursive: true, force: true });
});

describe('runnable guide samples against the mocks', () => {
  it('the guides mark samples as runnable', () => {
    expect(runnable.length).toBeGreaterThan(0);
  });

  it('a sample that throws fails its test', async () => {
    const [broken] = [...writeSamples([{ guide: '99-broken.md', index: 0, line: 3, flags: ['runnable'], code: "throw new Error('sample failed');" }], join(dir, 'broken'))];
    await expect(import(pathToFileURL(broken?.[0] ?? '').href)).rejects.toThrow('sample failed');
  });

  it.each(runnable.map((sample) => ({ ...sample, name: `${sample.guide} sample ${sample.index + 1} (line ${sample.line})` })))(
    '$name runs to completion',
    async (sample) => {
      if (!sample.flags.includes('sandbox')) return void (await import(pathToFileURL(join(dir, sampleFileName(sample))).href));
      // Against the sandbox: a fresh state, and the addresses and keys a merchant would set for it.
      await sandbox!.control.resetSandbox();
      const prism = { url: process.env.PAYKIT_PAYMENTS_BASE_URL, secret: process.env.PAYKIT_SECRET_KEY, publishable: process.env.PAYKIT_PUBLISHABLE_KEY };
      Object.assign(process.env, { PAYKIT_PAYMENTS_BASE_URL: sandbox!.url, PAYKIT_SECRET_KEY: sandbox!.keys.secret[0], PAYKIT_PUBLISHABLE_KEY: sandbox!.keys.publishable[0] });
      try {
        await import(pathToFileURL(join(dir, sampleFileName(sample))).href);
        expect(sandbox!.violations(), 'answers of the sandbox that broke the contract').toEqual([]);
      } finally {
        Object.assign(process.env, { PAYKIT_PAYMENTS_BASE_URL: prism.url, PAYKIT_SECRET_KEY: prism.secret, PAYKIT_PUBLISHABLE_KEY: prism.publishable });
      }
    },
  );

  it('the new guides run their samples against the sandbox', () => {
    for (const guide of ['14-refunds-and-voids.md', '15-pre-authorisation-and-capture.md', '16-customers-stored-accounts-and-recurring-payments.md', '17-payment-files-and-batches.md', '18-mandate-agreements.md']) {
      expect(runnable.some((s) => s.guide === guide && s.flags.includes('sandbox')), guide).toBe(true);
    }
  });
});
