// openapi-fetch's client on a secret client's transport, from its own entry point, as the README shows it.
import { createSecretClient } from '@paykit/payments';
import { createRawClient, type RawClient } from '@paykit/payments/raw';

export async function readTransactionRaw(apiKey: string): Promise<string> {
  const raw: RawClient = createRawClient(createSecretClient({ apiKey, baseUrl: 'http://127.0.0.1:4010/rest/v1' }));
  const { data, error, response } = await raw.GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '1000000001' } } });
  if (error) return `HTTP ${response.status}`;
  return data.receiptNumber;
}

// @ts-expect-error the path parameters are typed from the spec: a receipt number is required.
createRawClient(createSecretClient({ apiKey: 'sk', baseUrl: 'http://127.0.0.1:4010/rest/v1' })).GET('/transactions/{receiptNumber}', {});
