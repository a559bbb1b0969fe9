import type { DownloadFileInput } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileExchangeHarness, type FileExchangeHarness } from '../src/file-exchange-harness.js';
import { invokeFileExchangeOperation } from '../src/file-exchange-invoker.js';
import { otherIdentifierFormats } from '../src/json-mutations.js';
import { matrixCases } from '../src/matrix-cases.js';
import type { ProxiedResponse } from '../src/mutating-proxy.js';
import { loadContract } from '../src/openapi-document.js';
import { startSoapHarness, type SoapHarness } from '../src/soap-harness.js';
import { complexElementNames, sampleInput, soapOperationNames, withExtraElements, type SoapOperationName } from '../src/soap-messages.js';
import { sharedCertificates, sharedPrism } from './support/mocks.js';
import { record } from './support/summary.js';

/** A response rewrite that reports whether it changed anything. */
type XmlRule = { name: string; rewrite: (xml: string) => { xml: string; changed: number } };

const extraElements = (names: readonly string[], namespace: string): XmlRule => ({
  name: 'extra-elements',
  rewrite: (xml) => {
    const { xml: mutated, added } = withExtraElements(xml, names, namespace);
    return { xml: mutated, changed: added };
  },
});

function rewriteWith(rule: XmlRule, counter: { changed: number }) {
  return (response: ProxiedResponse): ProxiedResponse => {
    if (!/xml/.test(String(response.headers['content-type'] ?? ''))) return response;
    const { xml, changed } = rule.rewrite(response.body.toString('utf8'));
    counter.changed += changed;
    return { ...response, body: Buffer.from(xml) };
  };
}

describe('file exchange REST tolerance: the XML download list with elements the client does not know', () => {
  const document = loadContract('file-exchange');
  const xmlCases = matrixCases(document, { includeErrors: false }).filter((c) => c.mediaType === 'application/xml');
  const rule = extraElements(['downloadFileList', 'file'], 'urn:paykit:file-exchange:v1');

  let harness: FileExchangeHarness;
  beforeAll(async () => {
    harness = await startFileExchangeHarness(sharedPrism('file-exchange'));
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('has XML answers to mutate', () => {
    expect(xmlCases.length).toBeGreaterThan(0);
  });

  it.each(xmlCases)('$name ~ extra-elements', async (matrixCase) => {
    harness.proxy.reset({ prefer: matrixCase.prefer });
    const baseline = await invokeFileExchangeOperation(harness.client, matrixCase);
    const counter = { changed: 0 };
    harness.proxy.reset({ prefer: matrixCase.prefer, mutateResponse: rewriteWith(rule, counter) });
    const mutated = await invokeFileExchangeOperation(harness.client, matrixCase);
    harness.proxy.assertHealthy();
    expect(counter.changed).toBeGreaterThan(0);
    expect(baseline.outcome).toBe('success');
    expect(mutated).toEqual(baseline);
    record({ contract: 'file-exchange', kind: 'mutation', operationId: matrixCase.operation.operationId, rule: rule.name });
  });
});

describe('file exchange SOAP tolerance: responses with extra elements and other file ID formats', () => {
  const queueId = String(sampleInput('downloadFiles' as SoapOperationName).queueID);
  const queued: DownloadFileInput[] = [
    { fileName: 'statement_001.csv', fileID: 'F-1', fileType: 'STATEMENT', mimeType: 'text/csv', content: Buffer.from('a,b\n1,2\n'), parameters: [{ name: 'k', value: 'v' }] },
    { fileName: 'statement_002.csv', fileID: 'F-2', content: Buffer.from('c,d\n') },
  ];
  const longFileId = otherIdentifierFormats[0]!;
  const fileIdRule: XmlRule = {
    name: 'identifier-formats',
    rewrite: (xml) => {
      let changed = 0;
      const mutated = xml.replace(/<((?:[\w.-]+:)?fileID)>[^<]*<\/\1>/g, (_, tag: string) => {
        changed++;
        return `<${tag}>${longFileId.slice(0, 250)}-${changed}</${tag}>`;
      });
      return { xml: mutated, changed };
    },
  };

  let harness: SoapHarness;
  beforeAll(async () => {
    harness = await startSoapHarness(queueId, sharedCertificates());
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function run(operation: SoapOperationName, rewrite?: (r: ProxiedResponse) => ProxiedResponse): Promise<unknown> {
    for (const file of queued) harness.mock.store.enqueueDownload(file);
    harness.proxy.reset(rewrite ? { mutateResponse: rewrite } : {});
    const output = await harness.client.call(operation, sampleInput(operation) as never);
    harness.proxy.assertHealthy();
    harness.proxy.reset();
    while (harness.mock.store.pendingDownloads().length > 0) await harness.client.downloadFiles(queueId);
    return output;
  }

  const rows = soapOperationNames.flatMap((operation) => {
    const extra = extraElements(complexElementNames(operation), 'urn:paykit:file-exchange:v1');
    const together: XmlRule = {
      name: 'all-together',
      rewrite: (xml) => {
        const ids = fileIdRule.rewrite(xml);
        const more = extra.rewrite(ids.xml);
        return { xml: more.xml, changed: ids.changed + more.changed };
      },
    };
    return [extra, fileIdRule, together].map((rule) => ({ name: `${operation} ~ ${rule.name}`, operation, rule }));
  });

  it.each(rows)('$name', async ({ operation, rule }) => {
    const baseline = await run(operation);
    const counter = { changed: 0 };
    const mutated = await run(operation, rewriteWith(rule, counter));
    // Modulo the mutated values: a replaced fileID is the delivered one; everything else is unchanged.
    const files = (mutated as { file?: Array<{ fileID: string }> }).file ?? [];
    const restored = files.length
      ? {
          ...(mutated as object),
          file: files.map((f, i) => {
            if (rule.name === 'extra-elements') return f;
            expect(f.fileID).toBe(`${longFileId.slice(0, 250)}-${i + 1}`);
            return { ...f, fileID: queued[i]!.fileID };
          }),
        }
      : mutated;
    expect(restored).toEqual(baseline);
    if (counter.changed > 0) record({ contract: 'file-exchange-soap', kind: 'mutation', operationId: operation, rule: rule.name });
  });
});
