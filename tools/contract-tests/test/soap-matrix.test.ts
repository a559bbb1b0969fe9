import type { DownloadFileInput } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSoapHarness, type SoapHarness } from '../src/soap-harness.js';
import { bodyMessage, sampleInput, soapOperationNames, xsdProblems, type SoapOperationName } from '../src/soap-messages.js';
import { sharedCertificates } from './support/mocks.js';
import { record } from './support/summary.js';

const queueId = String(sampleInput('downloadFiles' as SoapOperationName).queueID ?? 'queueID-sample-1');
const queuedFiles: DownloadFileInput[] = [
  { fileName: 'report_20260115_001.xml', fileID: 'F-0001', fileType: 'REPORT', mimeType: 'application/xml', content: Buffer.from('<report/>'), parameters: [{ name: 'batch', value: '7' }] },
  { fileName: 'report_20260115_002.txt', fileID: 'F-0002', content: Buffer.from('plain ✓ text') },
];
const queueStates = ['two files queued', 'queue empty'] as const;
const cases = soapOperationNames.flatMap((operation) => queueStates.map((queue) => ({ name: `${operation} (${queue})`, operation, queue })));

/** What each operation must have done, checked against the mock's state (the only SOAP-specific knowledge here). */
const effects: Record<string, (h: SoapHarness, input: Record<string, unknown>, output: unknown, queue: (typeof queueStates)[number]) => void> = {
  uploadFile: (h, input, output) => {
    expect(output).toEqual({});
    const upload = h.mock.store.uploads().at(-1);
    expect(upload).toMatchObject({ fileName: input.fileName, fileID: input.fileID, fileType: input.fileType, mimeType: input.mimeType, via: 'soap' });
    expect(upload?.content.equals(Buffer.from(input.fileContent as Uint8Array))).toBe(true);
  },
  downloadFiles: (_h, _input, output, queue) => {
    const files = ((output as { file?: Array<Record<string, unknown>> }).file ?? []).map((f) => ({ ...f, fileContent: Buffer.from(f.fileContent as Uint8Array).toString('utf8') }));
    const expected = queue === 'queue empty' ? [] : queuedFiles.map((q) => ({
      fileID: q.fileID,
      fileName: q.fileName,
      fileContent: q.content?.toString('utf8'),
      ...(q.fileType ? { fileType: q.fileType } : {}),
      ...(q.mimeType ? { mimeType: q.mimeType } : {}),
      ...(q.parameters ? { parameter: q.parameters } : {}),
    }));
    expect(files).toEqual(expected);
  },
};

let harness: SoapHarness;
beforeAll(async () => {
  harness = await startSoapHarness(queueId, sharedCertificates());
});
afterAll(async () => {
  await harness?.close();
});

describe('file exchange SOAP contract matrix: every WSDL operation through @paykit/file-exchange-soap against the SOAP mock', () => {
  it.each(cases)('$name', async ({ operation, queue }) => {
    const effect = effects[operation];
    expect(effect, `no expected effect written for the new operation ${operation}`).toBeDefined();
    if (queue === 'two files queued') for (const file of queuedFiles) harness.mock.store.enqueueDownload(file);
    harness.proxy.reset();
    const input = sampleInput(operation);
    const output = await harness.client.call(operation, input as never);
    harness.proxy.assertHealthy();
    // Drain what this case left, so that the next one starts from an empty queue.
    while (harness.mock.store.pendingDownloads().length > 0) await harness.client.downloadFiles(queueId);

    const exchange = harness.proxy.exchanges[0]!;
    expect(exchange.delivered.status).toBe(200);
    expect(String(exchange.delivered.headers['content-type'])).toMatch(/^text\/xml/);
    expect(await xsdProblems(bodyMessage(exchange.received.body.toString('utf8')))).toEqual([]);
    expect(await xsdProblems(bodyMessage(exchange.delivered.body.toString('utf8')))).toEqual([]);
    effect!(harness, input, output, queue);
    record({ contract: 'file-exchange-soap', kind: 'operation', operationId: operation, total: soapOperationNames.length });
  });

  it('the XSD check rejects a message that breaks the schema', async () => {
    expect(await xsdProblems('<downloadFiles xmlns="urn:paykit:file-exchange:v1"><unknown/></downloadFiles>')).not.toEqual([]);
  });
});
