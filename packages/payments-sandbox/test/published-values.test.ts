import { afterEach, describe, expect, it, vi } from 'vitest';
import { warningHeader } from '../src/resources/operations.js';
import { call, cardToken, paymentRequest, sandboxPerTest } from './support.js';

// A request value outside the values the contract publishes (`x-paykit-open-enum`) is accepted and flagged: the
// answer's warning header names it, and the sandbox logs it once (OUR assumption `unpublished-request-values`).
const env = sandboxPerTest();

afterEach(() => {
  vi.restoreAllMocks();
});

const pay = async (extra: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(env.sandbox, 'POST', '/transactions', { body: paymentRequest(await cardToken(env), 10, extra), headers });

describe('payments sandbox: request values the contract does not publish', () => {
  it.each([
    { label: 'the published entryMode', extra: { entryMode: 'STORED_CREDENTIAL' }, flagged: [] },
    { label: 'an unpublished entryMode', extra: { entryMode: 'ECOMMERCE' }, flagged: ['entryMode "ECOMMERCE" is not a value the reference publishes (published: STORED_CREDENTIAL)'] },
    { label: 'the published eci', extra: { eci: 'INTERNET' }, flagged: [] },
    { label: 'an unpublished eci', extra: { eci: 'MOTO' }, flagged: ['eci "MOTO" is not a value the reference publishes (published: INTERNET)'] },
    { label: 'a published transactionType', extra: { transactionType: 'PREAUTH' }, flagged: [] },
    {
      label: 'two unpublished values',
      extra: { entryMode: 'MANUAL', eci: 'MAIL_ORDER' },
      flagged: [
        'eci "MAIL_ORDER" is not a value the reference publishes (published: INTERNET)',
        'entryMode "MANUAL" is not a value the reference publishes (published: STORED_CREDENTIAL)',
      ],
    },
    // A value that could not go in a header as it is (a line break, non-ASCII text) is shown with printable ASCII only.
    { label: 'a value with a line break and non-ASCII text', extra: { entryMode: 'A\r\nX-Evil: 1 é' }, flagged: ['entryMode "A\\r\\nX-Evil: 1 ?" is not a value the reference publishes (published: STORED_CREDENTIAL)'] },
  ])('$label: accepted (201), flagged and logged (each value is new to the sandbox)', async ({ extra, flagged }) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const response = await pay(extra);
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get(warningHeader)?.split('; ') ?? []).toEqual(flagged);
    expect(response.headers.get('x-evil')).toBeNull();
    expect(warn.mock.calls.map(([line]) => String(line)).filter((line) => flagged.some((f) => line.includes(f)))).toHaveLength(flagged.length);
  });

  it('logs each unpublished value once per sandbox, and flags every answer that carries it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = await pay({ entryMode: 'KEYED' });
    const second = await pay({ entryMode: 'KEYED' });
    expect([first.headers.get(warningHeader), second.headers.get(warningHeader)]).toEqual([
      'entryMode "KEYED" is not a value the reference publishes (published: STORED_CREDENTIAL)',
      'entryMode "KEYED" is not a value the reference publishes (published: STORED_CREDENTIAL)',
    ]);
    expect(warn.mock.calls.filter(([line]) => String(line).includes('"KEYED"'))).toHaveLength(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^payments sandbox: createTransaction: entryMode "KEYED" .* Paykit-Sandbox-Warning header\.$/);
  });

  it('a resend with the same Idempotency-Key gets the original answer, flag included', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const body = paymentRequest(await cardToken(env), 10, { entryMode: 'ECOMMERCE' });
    const headers = { 'idempotency-key': 'flagged-once' };
    const first = await call(env.sandbox, 'POST', '/transactions', { body, headers });
    const again = await call(env.sandbox, 'POST', '/transactions', { body, headers });
    expect(again.json.receiptNumber).toBe(first.json.receiptNumber);
    expect(again.headers.get(warningHeader)).toBe(first.headers.get(warningHeader));
    expect(first.headers.get(warningHeader)).toContain('entryMode "ECOMMERCE"');
  });

  it('a refund (a transactionType the reference does not publish) is taken and flagged', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const payment = (await pay({})).json as { receiptNumber: string };
    const refund = await call(env.sandbox, 'POST', '/transactions', {
      body: { transactionType: 'REFUND', originalReceiptNumber: payment.receiptNumber, principalAmount: 1, entryMode: 'STORED_CREDENTIAL' },
    });
    expect(refund.status).toBe(201);
    expect(refund.headers.get(warningHeader)).toBe('transactionType "REFUND" is not a value the reference publishes (published: PAYMENT, PREAUTH)');
  });
});
