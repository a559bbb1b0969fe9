import { errorKindOfStatus } from '@paykit/payments';
import { beforeAll, describe, expect, it } from 'vitest';
import { matrixCases } from '../src/matrix-cases.js';
import { isJsonMediaType, listOperations, loadContract } from '../src/openapi-document.js';
import { createPaymentsClients, invokePaymentsOperation, testKeys, type PaymentsClients } from '../src/payments-invoker.js';
import { mediaTypeOf, WireCheck } from '../src/wire-check.js';
import { sharedPrism } from './support/mocks.js';
import { record } from './support/summary.js';

// The matrix is computed from the published spec when this file loads: no operation is named here.
const document = loadContract('payments');
const operationCount = listOperations(document).length;
const validator = new WireCheck('payments');
const cases = matrixCases(document, { includeErrors: true });

const mock = sharedPrism('payments');
let clients: PaymentsClients;
beforeAll(() => {
  clients = createPaymentsClients(mock.url);
});

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

function parsedWireBody(text: string, contentType: string | null): unknown {
  if (!text) return undefined;
  return isJsonMediaType(mediaTypeOf(contentType) ?? '') ? JSON.parse(text) : text;
}

describe('payments contract matrix: every operation through @paykit/payments against Prism', () => {
  it('covers every operation of the spec with at least one success case', () => {
    const withSuccess = new Set(cases.filter((c) => c.status < 300).map((c) => c.operation.operationId));
    expect(withSuccess.size).toBe(operationCount);
    expect(operationCount).toBeGreaterThan(0);
  });

  it.each(cases)('$name', async (matrixCase) => {
    const { operation, request, status, mediaType, prefer } = matrixCase;
    clients.recorder.clear();
    const outcome = await invokePaymentsOperation(clients, operation.operationId, request, {
      headers: { Prefer: prefer },
      ...(status < 300 && mediaType ? { accept: mediaType } : {}),
    });
    const wire = clients.recorder.last();

    // The request: the key type the operation's security names, and a body valid against the spec.
    const key = operation.security.includes('publishableKey') ? testKeys.publishableKey : testKeys.secretKey;
    expect(wire.request.headers.get('authorization')).toBe(basic(key));
    expect(validator.request(operation.operationId, wire.request)).toEqual([]);

    // The response: the status asked for (not a Prism validation error), valid against the spec.
    expect(wire.response.status, wire.response.text.slice(0, 500)).toBe(status);
    expect(validator.answer(operation.operationId, wire.response)).toEqual([]);
    // Prism answers even some requests it finds invalid, and lists what it found in this header.
    expect(wire.response.headers.get('sl-violations')).toBeNull();

    // Our client's result: everything the wire carried, as the right outcome.
    const body = parsedWireBody(wire.response.text, wire.response.headers.get('content-type'));
    if (status < 300) {
      expect(outcome).toMatchObject({ outcome: 'success', status });
      expect(outcome.outcome === 'success' && outcome.data).toEqual(body);
    } else {
      expect(outcome).toMatchObject({ outcome: 'error', status, kind: errorKindOfStatus(status) });
      expect(outcome.outcome === 'error' && outcome.body).toEqual(body);
    }
    if (status < 300) record({ contract: 'payments', kind: 'operation', operationId: operation.operationId, total: operationCount });
  });
});
