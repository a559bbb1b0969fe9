import { errorKindOfStatus } from '@paykit/payments';
import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isJsonMediaType, listOperations, loadContract } from '../src/openapi-document.js';
import { createPaymentsClients, invokePaymentsOperation, testKeys, type PaymentsClients } from '../src/payments-invoker.js';
import { mediaTypeOf, WireCheck } from '../src/wire-check.js';
import { sandboxCases, sandboxClients, type SandboxCase } from '../src/sandbox-cases.js';
import { SandboxFixtures } from '../src/sandbox-fixtures.js';
import { record } from './support/summary.js';

// The same published spec and validator as the Prism matrix; the rows are situations the sandbox answers for real.
const document = loadContract('payments');
const operationCount = listOperations(document).length;
const validator = new WireCheck('payments');
const cases = sandboxCases(document);

let sandbox: PaymentsSandbox;
let fixtures: SandboxFixtures;
const clients = {} as Record<'normal' | 'unknownKey' | 'wrongKeyType' | 'unchecked', PaymentsClients>;
beforeAll(async () => {
  sandbox = await startPaymentsSandbox({ keys: { secret: [testKeys.secretKey], publishable: [testKeys.publishableKey] }, checkResponses: true });
  fixtures = new SandboxFixtures(sandbox);
  clients.normal = createPaymentsClients(sandbox.url);
  clients.unknownKey = sandboxClients(sandbox.url, { secret: 'sk_unknown', publishable: 'pk_unknown' });
  clients.wrongKeyType = sandboxClients(sandbox.url, { secret: testKeys.publishableKey, publishable: testKeys.secretKey });
  clients.unchecked = sandboxClients(sandbox.url, { secret: testKeys.secretKey, publishable: testKeys.publishableKey }, false);
});
afterEach(() => {
  // The sandbox checks its own answers too: any disagreement with the contract fails the row that caused it.
  expect(sandbox.violations()).toEqual([]);
});
afterAll(async () => {
  await sandbox?.close();
});

const parsedBody = (text: string, contentType: string | null): unknown =>
  !text ? undefined : isJsonMediaType(mediaTypeOf(contentType) ?? '') ? JSON.parse(text) : text;

async function run({ operation, request, situation }: SandboxCase) {
  await fixtures.reset();
  let using = clients.normal;
  let sent = request;
  const options: { accept?: string } = {};
  switch (situation.kind) {
    case 'success':
      sent = await fixtures.request(request);
      if (situation.mediaType) options.accept = situation.mediaType;
      break;
    case 'unknown key':
      using = clients.unknownKey;
      break;
    case 'wrong key type':
      using = clients.wrongKeyType;
      break;
    case 'not acceptable':
      options.accept = 'text/html';
      break;
    case 'unknown identifier':
      sent = { ...request, path: Object.fromEntries(Object.entries(request.path).map(([name, value]) => [name, SandboxFixtures.knows(name) ? 'no-such-id' : value])) };
      break;
    case 'invalid body':
      using = clients.unchecked;
      sent = { ...request, body: [] };
      break;
    case 'fault':
      await sandbox.control.injectFault({ fault: { status: situation.status, when: 'before' }, operationId: operation.operationId });
      break;
  }
  using.recorder.clear();
  const outcome = await invokePaymentsOperation(using, operation.operationId, sent, options);
  return { outcome, wire: using.recorder.last(), sent };
}

describe('payments contract matrix: every operation through @paykit/payments against the payments sandbox', () => {
  it('covers every operation of the spec with a success case', () => {
    expect(new Set(cases.filter((c) => c.situation.kind === 'success').map((c) => c.operation.operationId)).size).toBe(operationCount);
  });

  it.each(cases)('$name', async (matrixCase) => {
    const { operation, situation, status } = matrixCase;
    const { outcome, wire } = await run(matrixCase);

    if (situation.kind !== 'invalid body') {
      expect(validator.request(operation.operationId, wire.request)).toEqual([]);
    }
    if (status === undefined) expect(wire.response.status, wire.response.text.slice(0, 500)).toBeLessThan(300);
    else expect(wire.response.status, wire.response.text.slice(0, 500)).toBe(status);
    expect(validator.answer(operation.operationId, wire.response)).toEqual([]);

    const body = parsedBody(wire.response.text, wire.response.headers.get('content-type'));
    if (status === undefined) {
      expect(outcome).toMatchObject({ outcome: 'success', status: wire.response.status });
      expect(outcome.outcome === 'success' && outcome.data).toEqual(body);
      record({ contract: 'payments (sandbox)', kind: 'operation', operationId: operation.operationId, total: operationCount });
    } else {
      expect(outcome).toMatchObject({ outcome: 'error', status, kind: errorKindOfStatus(status) });
      // With an Accept the error is not in, the client keeps the error body as the text it came as.
      const clientBody = outcome.outcome === 'error' ? outcome.body : undefined;
      expect(typeof clientBody === 'string' && typeof body !== 'string' ? JSON.parse(clientBody) : clientBody).toEqual(body);
    }
  });
});
