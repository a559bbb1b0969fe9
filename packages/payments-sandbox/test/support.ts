import { createPublishableClient, createSecretClient, type PaymentsClient, type PublishableClient } from '@paykit/payments';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startPaymentsSandbox, type PaymentsSandbox, type PaymentsSandboxOptions } from '../src/index.js';
import { internalsOf } from '../src/sandbox.js';
import type { RequestPhases } from '../src/http/request-phases.js';

/** The sandbox of a test file: started once, reset before every test, and checked against the contract after each. */
export interface SandboxPerTest {
  sandbox: PaymentsSandbox;
  secret: PaymentsClient;
  publishable: PublishableClient;
  secretKey: string;
  publishableKey: string;
}

/**
 * One sandbox for the file, with every answer and webhook notification checked against the contract
 * (`checkResponses`): a test after which the sandbox sent anything the contract does not allow fails. Clients wait
 * 5 ms instead of the reference's 20 s between resends. Read the fields inside tests, not at registration time.
 */
export function sandboxPerTest(options: PaymentsSandboxOptions = {}): SandboxPerTest {
  const env = {} as SandboxPerTest;
  beforeAll(async () => {
    env.sandbox = await startPaymentsSandbox({ checkResponses: true, ...options });
    env.secretKey = env.sandbox.keys.secret[0]!;
    env.publishableKey = env.sandbox.keys.publishable[0]!;
    env.secret = createSecretClient({ apiKey: env.secretKey, baseUrl: env.sandbox.url, retry: { delayMs: 5 } });
    env.publishable = createPublishableClient({ apiKey: env.publishableKey, baseUrl: env.sandbox.url, retry: { delayMs: 5 } });
  });
  beforeEach(async () => {
    await env.sandbox.control.resetSandbox();
  });
  afterEach(async () => {
    // A test that failed while holding requests lets them go, so that the next one starts clean.
    internalsOf(env.sandbox).phases.reset();
    await env.sandbox.webhooksIdle();
    expect(env.sandbox.violations(), 'answers of the sandbox that the contract does not allow').toEqual([]);
  });
  afterAll(async () => {
    await env.sandbox?.close();
  });
  return env;
}

/** The phases of a sandbox's requests: hold requests at one and release them (`src/http/request-phases.ts`). */
export const phasesOf = (sandbox: PaymentsSandbox): RequestPhases => internalsOf(sandbox).phases;

/** Promises counted as they settle, so that a test can wait for the n-th answer without knowing which it will be. */
export function tally<T>(promises: Promise<T>[]): { settled: T[]; until(count: number): Promise<T[]> } {
  const settled: T[] = [];
  const waiting = new Set<{ count: number; resolve: (values: T[]) => void }>();
  for (const promise of promises) {
    void promise.then((value) => {
      settled.push(value);
      for (const waiter of waiting) if (settled.length >= waiter.count) (waiting.delete(waiter), waiter.resolve([...settled]));
    });
  }
  return {
    settled,
    until: (count) => (settled.length >= count ? Promise.resolve([...settled]) : new Promise((resolve) => void waiting.add({ count, resolve }))),
  };
}

export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export interface WireResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One request as a merchant's code would send it without our client: for the rules about the request itself. */
export async function call(
  sandbox: PaymentsSandbox,
  method: string,
  path: string,
  init: { key?: string | null; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<WireResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  const key = init.key === undefined ? sandbox.keys.secret[0]! : init.key;
  if (key !== null) headers.authorization ??= basic(key);
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(path.startsWith('http') ? path : sandbox.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const business = 'TEST_BUSINESS';

export const browserProfile = {
  browserJavaEnabled: false,
  browserLanguage: 'en-AU',
  browserScreenHeight: '1080',
  browserScreenWidth: '1920',
  browserColorDepth: '24' as const,
  browserTZ: '-600',
};

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

export function paymentRequest(singleUseTokenId: string, principalAmount = 10, extra: Record<string, unknown> = {}) {
  return {
    transactionType: 'PAYMENT',
    singleUseTokenId,
    supplierBusinessCode: business,
    principalAmount,
    currency: 'AUD',
    eci: 'INTERNET',
    entryMode: 'STORED_CREDENTIAL',
    ...extra,
  };
}

/** A fresh card token through the publishable client. */
export async function cardToken(env: SandboxPerTest, cardNumber?: string, extra?: Record<string, unknown>): Promise<string> {
  const { data } = await env.publishable.singleUseTokens.create(cardTokenRequest(cardNumber, extra) as never);
  return (data as { singleUseTokenId: string }).singleUseTokenId;
}

/** A caught failure of a call, for assertions on it. */
export async function failureOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Every item of a paged control list (`listTransactions`, `listWebhookDeliveries`...), page after page. */
export async function everyItem<T>(list: (query: { cursor?: string; limit?: number }) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list({ limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}
