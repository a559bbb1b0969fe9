import { createSecretClient, isPaymentsError, type AnyPaymentsError, type PaymentsClientOptions } from '../../src/index.js';

/** Fake keys, long enough to be recognisable if they ever leaked into output. */
export const secretKey = 'sk_test_4f9d2c7b1e8a4b6c9d0e1f2a3b4c5d6e';
export const publishableKey = 'pk_test_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d';

/** A payment from a single-use token, the request the reference details. */
export const paymentRequest = {
  transactionType: 'PAYMENT',
  singleUseTokenId: '1b2c3d4e-0000-4000-8000-000000000001',
  supplierBusinessCode: 'TEST_BUSINESS',
  principalAmount: 100,
  currency: 'AUD',
  eci: 'INTERNET',
  ipAddress: '192.0.2.10',
  entryMode: 'STORED_CREDENTIAL',
};

export function secretClient(baseUrl: string, options: Partial<PaymentsClientOptions> = {}) {
  return createSecretClient({ apiKey: secretKey, baseUrl, retry: { delayMs: 5 }, ...options });
}

/** The PaymentsError a call fails with; anything else (or success) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<AnyPaymentsError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isPaymentsError(error)) throw new Error(`expected a PaymentsError, got ${String(error)}`);
  return error;
}
