/** The requests of a merchant's own code (no client library), for the proxy's tests. */
export const business = 'TEST_BUSINESS';
export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export function cardTokenRequest(cardNumber = '4111111111111111', extra: Record<string, unknown> = {}) {
  return {
    supplierBusinessCode: business,
    accountType: 'CREDIT_CARD' as const,
    cardholderName: 'Test Cardholder',
    cardNumber,
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
    ...extra,
  };
}

export function paymentRequest(singleUseTokenId: string, principalAmount = 10) {
  return {
    transactionType: 'PAYMENT',
    singleUseTokenId,
    supplierBusinessCode: business,
    principalAmount,
    currency: 'AUD',
    eci: 'INTERNET',
    entryMode: 'STORED_CREDENTIAL',
  };
}

export interface Sent {
  status: number;
  json: any;
  text: string;
  headers: Headers;
}

/** One request: `key` becomes Basic authentication, an object `body` JSON, a string body is sent as it is. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  init: { key?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = basic(init.key);
  let body: string | undefined;
  if (typeof init.body === 'string') body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}
