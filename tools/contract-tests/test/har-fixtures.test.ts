// end-to-end: the contract proxy's validator is a real Prism process (proxy mode), started by the test.
import { createPublishableClient, createSecretClient } from '@paykit/payments';
import { prismValidator, startContractProxy, startPaymentsSandbox, type HarEntry } from '@paykit/mock-server';
import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from '../src/openapi-document.js';
import { ContractValidator } from '../src/response-validator.js';

// A recording of the contract proxy as fixtures: the answers a service gave, checked here by our own validator (ajv),
// a second opinion beside Prism's in the proxy.
const document = loadContract('payments');
const operations = new Map(listOperations(document).map((operation) => [operation.operationId, operation]));
const validator = new ContractValidator(document, 'payments');

async function recordFlow(): Promise<HarEntry[]> {
  const sandbox = await startPaymentsSandbox();
  const proxy = await startContractProxy({ upstream: sandbox.url, validator: prismValidator('payments'), record: true });
  try {
    const tokens = createPublishableClient({ apiKey: sandbox.keys.publishable[0]!, baseUrl: proxy.url });
    const payments = createSecretClient({ apiKey: sandbox.keys.secret[0]!, baseUrl: proxy.url });
    const { data: token } = await tokens.singleUseTokens.create({
      supplierBusinessCode: 'TEST_BUSINESS',
      accountType: 'CREDIT_CARD',
      cardNumber: '4111111111111111',
      expiryDateMonth: '12',
      expiryDateYear: String(new Date().getUTCFullYear() + 3),
    } as never);
    const { data: payment } = await payments.transactions.create({
      transactionType: 'PAYMENT',
      singleUseTokenId: (token as { singleUseTokenId: string }).singleUseTokenId,
      supplierBusinessCode: 'TEST_BUSINESS',
      principalAmount: 20,
      currency: 'AUD',
      entryMode: 'STORED_CREDENTIAL',
    } as never);
    await payments.transactions.get((payment as { receiptNumber: string }).receiptNumber as never);
    expect(proxy.report().totals).toEqual({ request: 0, answer: 0 });
    return proxy.har().log.entries;
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

describe('a contract proxy recording as fixtures of the service’s answers', () => {
  // Starts Prism (about a second idle, 4 s at a load average of 20), then three calls through it.
  it('every recorded answer is valid against the contract, redacted as it is', { timeout: 60_000 }, async () => {
    const entries = await recordFlow();
    expect(entries.map((e) => e._paykitOperation)).toEqual(['createSingleUseToken', 'createTransaction', 'getTransaction']);
    for (const entry of entries) {
      const operation = operations.get(entry._paykitOperation);
      expect(operation, entry._paykitOperation).toBeDefined();
      const headers = new Headers(entry.response.headers.map(({ name, value }) => [name, value] as [string, string]));
      const problems = validator.checkResponse(operation!, { status: entry.response.status, headers, text: entry.response.content.text ?? '' });
      expect(problems, `${entry._paykitOperation}: ${problems.join('; ')}`).toEqual([]);
    }
  });
});
