import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileExchangeClient, FileLedger } from '@paykit/file-exchange';
import { createFileExchangeSoapClient } from '@paykit/file-exchange-soap';
import { startFileExchangeMock, type FileExchangeMock } from '@paykit/mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedCertificates } from './support/mocks.js';

// The stateful mock over client-certificate TLS with certificates made for this run: the drain loops as deployed.
const certificates = sharedCertificates();
let workDir: string;
let mock: FileExchangeMock;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'paykit-drain-'));
  // Small SOAP responses, so that draining takes several DownloadFiles exchanges.
  mock = await startFileExchangeMock({ certificates, soapMaxResponseBytes: 64, queueId: 'QUEUE-CONTRACT' });
});
afterAll(async () => {
  await mock?.close();
  await rm(workDir, { recursive: true, force: true });
});
afterEach(() => {
  expect(mock.store.pendingDownloads()).toEqual([]);
});

const tls = () => ({ pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPath });
const files = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ fileName: `${prefix}_20260115_${String(i + 1).padStart(3, '0')}.csv`, fileID: `${prefix}-${i + 1}`, content: Buffer.from(`row,${i + 1}\n`.repeat(i + 1)) }));

describe('file exchange drain loop', () => {
  it.each(['text', 'xml'] as const)('REST: processAll (%s list) hands every queued file over once, then deletes it', async (listFormat) => {
    const queued = files(`REST${listFormat.toUpperCase()}`, 5);
    for (const file of queued) mock.store.enqueueDownload(file);
    const client = await createFileExchangeClient({ baseUrl: mock.restUrl, tls: tls(), retry: false });
    const handled = new Map<string, string>();
    try {
      const report = await client.processAll(
        async (file) => {
          handled.set(file.name, await readFile(file.path, 'utf8'));
        },
        { ledger: new FileLedger(join(workDir, `ledger-${listFormat}.txt`)), listFormat, workDir },
      );
      expect(report.failed).toEqual([]);
      expect(report.processed.sort()).toEqual(queued.map((f) => f.fileName).sort());
    } finally {
      await client.close();
    }
    expect(Object.fromEntries(handled)).toEqual(Object.fromEntries(queued.map((f) => [f.fileName, f.content.toString('utf8')])));
  });

  it('SOAP: downloadAll repeats DownloadFiles until an empty response and yields every file once', async () => {
    const queued = files('SOAP', 6);
    for (const file of queued) mock.store.enqueueDownload(file);
    const client = await createFileExchangeSoapClient({ baseUrl: mock.soapUrl, tls: tls(), retry: false });
    const seen: Array<{ fileID: string; content: string }> = [];
    try {
      const session = client.downloadAll(mock.queueId);
      for await (const file of session) seen.push({ fileID: file.fileID, content: Buffer.from(file.fileContent).toString('utf8') });
      // More than one exchange with files, then the empty one that ends the loop.
      expect(session.stats.responses).toBeGreaterThan(2);
      expect(session.stats.duplicates).toBe(0);
    } finally {
      await client.close();
    }
    expect(seen).toEqual(queued.map((f) => ({ fileID: f.fileID, content: f.content.toString('utf8') })));
  });
});
