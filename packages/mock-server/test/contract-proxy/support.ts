export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export function paymentRequest(singleUseTokenId: string, principalAmount = 10) {
  return {
    transactionType: 'PAYMENT',
    singleUseTokenId,
    supplierBusinessCode: 'TEST_BUSINESS',
    principalAmount,
    currency: 'AUD',
    eci: 'INTERNET',
    entryMode: 'STORED_CREDENTIAL',
  };
}

/** One request as a merchant's own code would send it, without our client. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  init: { key?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = basic(init.key);
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(baseUrl + path, { method, headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined, headers: response.headers };
}
