import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequests } from '../src/example-request.js';
import { MutatingProxy } from '../src/mutating-proxy.js';
import { openEnumProperties, openUnionPattern } from '../src/open-enums.js';
import { listOperations, loadContract } from '../src/openapi-document.js';
import { createPaymentsClients, invokePaymentsOperation } from '../src/payments-invoker.js';
import { sharedPrism } from './support/mocks.js';

const require = createRequire(import.meta.url);
const document = loadContract('payments');
const generatedTypes = readFileSync(join(dirname(require.resolve('@paykit/payments/package.json')), 'src', 'generated', 'openapi.ts'), 'utf8');

/**
 * The response values the reference says may grow without a new version. Only the card type is named: "other values
 * may be added later" (payments-api.md, credit card object). A new sentence of that kind in the reference belongs here.
 */
const referenceOpenEnums = [{ schema: 'CreditCard', property: 'cardType' }];

describe('open enumerations stay open from the reference to the generated types', () => {
  const marked = openEnumProperties(document);

  it.each(referenceOpenEnums)('the spec marks $schema.$property open, with no closed enum', ({ schema, property }) => {
    const entry = marked.find((m) => m.schema === schema && m.property === property);
    expect(entry, `${schema}.${property} has no x-paykit-open-enum`).toBeDefined();
    expect(entry?.closedEnum).toBeUndefined();
    expect(entry?.knownValues.length).toBeGreaterThan(0);
  });

  it.each(marked)('the generated type of $schema.$property is the open union of its known values', ({ property, knownValues }) => {
    expect(generatedTypes).toMatch(openUnionPattern(property, knownValues));
  });

  it.each([
    { text: 'cardType?: "CREDIT" | "DEBIT" | (string & {});', open: true },
    { text: 'cardType?: "CREDIT" | "DEBIT";', open: false },
    { text: 'cardType?: string;', open: false },
  ])('the open-union check tells open from closed: $text', ({ text, open }) => {
    expect(openUnionPattern('cardType', ['CREDIT', 'DEBIT']).test(text)).toBe(open);
  });
});

describe('no client validates responses strictly', () => {
  const mock = sharedPrism('payments');
  let proxy: MutatingProxy;
  beforeAll(async () => {
    proxy = await MutatingProxy.start(mock.origin);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('@paykit/payments returns a card token with an unknown property and an unknown card type', async () => {
    const operation = listOperations(document).find((o) => o.security.includes('publishableKey') && o.method === 'POST' && o.responses.some((r) => r.content.some((c) => c.examples.some((e) => JSON.stringify(e.value).includes('"cardType"')))));
    expect(operation, 'an operation answering with a card type').toBeDefined();
    const request = exampleRequests(document, operation!)[0]!;
    proxy.reset({
      mutateResponse: (response) => {
        const body = JSON.parse(response.body.toString('utf8')) as { creditCard?: Record<string, unknown> } & Record<string, unknown>;
        body.addedLater = { shape: 'unknown to this client' };
        if (body.creditCard) body.creditCard.cardType = 'PREPAID_LATER';
        return { ...response, body: Buffer.from(JSON.stringify(body)) };
      },
    });
    const clients = createPaymentsClients(proxy.origin + new URL(mock.url).pathname);
    const outcome = await invokePaymentsOperation(clients, operation!.operationId, request);
    proxy.assertHealthy();
    expect(outcome).toMatchObject({
      outcome: 'success',
      data: { addedLater: { shape: 'unknown to this client' }, creditCard: { cardType: 'PREPAID_LATER' } },
    });
  });
});
