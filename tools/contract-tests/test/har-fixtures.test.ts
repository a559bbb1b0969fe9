import { createPublishableClient, createSecretClient } from '@paykit/payments';
import { startContractProxy, startPaymentsSandbox, type HarEntry } from '@paykit/mock-server';
import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from '../src/openapi-document.js';
import { WireCheck } from '../src/wire-check.js';

// A recording of the contract proxy as fixtures: the answers a service gave, as the recording keeps them (redacted),
// checked again from the HAR file by the contracts' validator: what the proxy recorded is still a valid answer.
const document = loadContract('payments');
const operations = new Map(listOperations(document).map((operation) => [operation.operationId, operation]));
const validator = new WireCheck('payments');

async function recordFlow(): Promise<HarEntry[]> {
  const sandbox = await startPaymentsSandbox();
  const proxy = await startContractProxy({ upstream: sandbox.url, record: true });
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
  // The sandbox and the proxy run in this process (the proxy validates in process, no Prism): three calls, one of
  // them a payment the sandbox takes a few hundred ms to process, then three answers checked. About
  // 1 s on a loaded machine; the bound only fails a hang.
  it('every recorded answer is valid against the contract, redacted as it is', { timeout: 15_000 }, async () => {
    const entries = await recordFlow();
    expect(entries.map((e) => e._paykitOperation)).toEqual(['createSingleUseToken', 'createTransaction', 'getTransaction']);
    for (const entry of entries) {
      expect(operations.has(entry._paykitOperation), entry._paykitOperation).toBe(true);
      const headers = new Headers(entry.response.headers.map(({ name, value }) => [name, value] as [string, string]));
      const problems = validator.answer(entry._paykitOperation, { status: entry.response.status, headers, text: entry.response.content.text ?? '' });
      expect(problems, `${entry._paykitOperation}: ${problems.join('; ')}`).toEqual([]);
    }
  });
});
