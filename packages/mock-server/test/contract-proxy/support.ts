import { startContractProxy, type ContractProxy, type ContractProxyOptions } from '@paykit/contract-proxy';
import { prismValidator, startPaymentsSandbox, type PaymentsSandbox } from '../../src/index.js';

export const business = 'TEST_BUSINESS';
export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export function cardTokenRequest(cardNumber = '4111111111111111') {
  return {
    supplierBusinessCode: business,
    accountType: 'CREDIT_CARD' as const,
    cardholderName: 'Test Cardholder',
    cardNumber,
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
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

export interface ProxiedSandbox {
  sandbox: PaymentsSandbox;
  proxy: ContractProxy;
  secretKey: string;
  publishableKey: string;
  close(): Promise<void>;
}

/** A fresh payments sandbox with the validating proxy (real Prism in proxy mode) in front of it. */
export async function proxiedSandbox(options: Partial<ContractProxyOptions> = {}): Promise<ProxiedSandbox> {
  const sandbox = await startPaymentsSandbox();
  const secretKey = sandbox.keys.secret[0]!;
  const publishableKey = sandbox.keys.publishable[0]!;
  const proxy = await startContractProxy({ upstream: sandbox.url, validator: prismValidator('payments'), ...options });
  return { sandbox, proxy, secretKey, publishableKey, close: async () => void (await Promise.allSettled([proxy.close(), sandbox.close()])) };
}

/** Starting Prism takes seconds, and a loaded CI machine is several times slower: the budget of a hook that starts it. */
export const slowStart = 120_000;

/** Waits for every start; a failed one is thrown once all have settled, so that afterAll can close the others. */
export async function allStarted(starts: Promise<unknown>[]): Promise<void> {
  for (const result of await Promise.allSettled(starts)) if (result.status === 'rejected') throw result.reason;
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
