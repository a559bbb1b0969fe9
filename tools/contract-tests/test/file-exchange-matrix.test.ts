import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileExchangeHarness, type FileExchangeHarness } from '../src/file-exchange-harness.js';
import { fileNamesOnTheWire, invokeFileExchangeOperation } from '../src/file-exchange-invoker.js';
import { matrixCases } from '../src/matrix-cases.js';
import { listOperations, loadContract } from '../src/openapi-document.js';
import { mediaTypeOf, WireCheck } from '../src/wire-check.js';
import { sharedPrism } from './support/mocks.js';
import { record } from './support/summary.js';

const document = loadContract('file-exchange');
const operationCount = listOperations(document).length;
const validator = new WireCheck('file-exchange');
const cases = matrixCases(document, { includeErrors: true });

// The client cannot add headers, so a proxy before Prism asks for each case (Prefer) and records the wire.
let harness: FileExchangeHarness;
beforeAll(async () => {
  harness = await startFileExchangeHarness(sharedPrism('file-exchange'));
});
afterAll(async () => {
  await harness?.close();
});

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return headers;
}

describe('file exchange REST contract matrix: every operation through @paykit/file-exchange against Prism', () => {
  it('covers every operation of the spec with at least one success case', () => {
    expect(new Set(cases.filter((c) => c.status < 300).map((c) => c.operation.operationId)).size).toBe(operationCount);
  });

  it.each(cases)('$name', async (matrixCase) => {
    const { operation, status, mediaType, prefer } = matrixCase;
    harness.proxy.reset({ prefer });
    const outcome = await invokeFileExchangeOperation(harness.client, matrixCase);
    harness.proxy.assertHealthy();
    const exchange = harness.proxy.last();
    const wire = { status: exchange.delivered.status, headers: headersOf(exchange.delivered.headers), text: exchange.delivered.body.toString('utf8') };

    expect(wire.status, wire.text.slice(0, 300)).toBe(status);
    expect(validator.answer(operation.operationId, wire)).toEqual([]);
    const sent = { method: exchange.received.method, url: exchange.received.url, headers: headersOf(exchange.received.headers), text: exchange.received.body.toString('utf8') };
    expect(validator.request(operation.operationId, { ...sent, url: `http://proxy.invalid${sent.url}` })).toEqual([]);
    // Prism's own findings about the request (it also flags its XML list example against the object schema, a
    // limit of its XML support, which is about the response and left out here).
    const violations = JSON.parse(String(exchange.upstream.headers['sl-violations'] ?? '[]')) as Array<{ location?: string[] }>;
    expect(violations.filter((v) => v.location?.[0] === 'request')).toEqual([]);

    if (status < 300) {
      expect(outcome.outcome, JSON.stringify(outcome)).toBe('success');
      const data = outcome.outcome === 'success' ? outcome.data : undefined;
      if (operation.operationId === 'listFilesForDownload') {
        expect(data).toEqual(status === 204 ? [] : fileNamesOnTheWire(wire.text, mediaTypeOf(wire.headers.get('content-type'))));
      } else if (wire.text) {
        expect(data).toMatchObject({ content: wire.text });
      } else {
        expect(data).toBeUndefined();
      }
      record({ contract: 'file-exchange', kind: 'operation', operationId: operation.operationId, total: operationCount });
    } else {
      expect(outcome).toMatchObject({ outcome: 'error', status });
    }
  });
});
