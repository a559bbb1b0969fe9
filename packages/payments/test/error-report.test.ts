import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsError } from '../src/index.js';
import { maskCardNumbers } from '../src/errors/redaction.js';
import { errorBody, json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';

// What a merchant hands support (the reference: method, URL, date and time, response body), and what never goes there.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('an error carries what support asks for, in toJSON too', () => {
  it.each([
    { status: 500, kind: 'server' },
    { status: 503, kind: 'server' },
    { status: 422, kind: 'validation' },
  ])('a $status: method, URL, date and time, response body and headers', async ({ status, kind }) => {
    server = await startLoopbackServer((_request, res) =>
      json(res, status, errorBody(status, 'Upstream failed'), { 'X-Request-Id': 'req-77', 'Set-Cookie': 'session=s3cr3t' }),
    );
    const before = Date.now();
    const error = await failure(secretClient(server.url, { retry: { maxRetries: 0 } }).transactions.create(paymentRequest));
    const report = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(report).toMatchObject({ kind, status, method: 'POST', url: `${server.url}/transactions`, idempotencyKey: error.idempotencyKey });
    expect(Date.parse(report.occurredAt as string)).toBeGreaterThanOrEqual(before - 1);
    expect(report.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(report.body).toMatchObject({ developerMessage: 'Upstream failed' });
    expect(report.headers).toMatchObject({ 'x-request-id': 'req-77', 'set-cookie': '[redacted]' });
    expect((report.headers as Record<string, string>).date).toBeTruthy();
    for (const view of [JSON.stringify(error), inspect(error, { depth: Infinity })]) expect(view).not.toContain('s3cr3t');
  });

  it('a network error says when and what, and has no headers (no answer came)', async () => {
    server = await startLoopbackServer((_request, res) => void res.socket?.destroy());
    const error = await failure(secretClient(server.url, { retry: { maxRetries: 0 } }).transactions.get('9'));
    expect(error.toJSON()).toMatchObject({ kind: 'network', method: 'GET', url: `${server.url}/transactions/9`, headers: undefined });
    expect(error.toJSON().occurredAt).toEqual(error.occurredAt);
  });
});

describe('card numbers the service echoes never reach an error', () => {
  const card = '4111111111111111';
  const spaced = '5555 5555 5555 4444';

  it.each([
    { text: card, masked: '************1111' },
    { text: `card ${spaced}.`, masked: 'card **** **** **** 4444.' },
    { text: '4111-1111-1111-1112', masked: '****-****-****-1112' },
    { text: '41111111111111112', masked: '*************1112' },
    { text: '12345678901', masked: '12345678901' },
    { text: '2026-11-25T10:00:00Z', masked: '2026-11-25T10:00:00Z' },
    { text: 'receipt 123456789012', masked: 'receipt ********9012' },
    { text: '4111.1111.1111.1111', masked: '****.****.****.1111' },
    { text: '4111\u00a01111\u00a01111\u00a01111', masked: '****\u00a0****\u00a0****\u00a01111' },
    { text: '4111\t1111\t1111\t1111', masked: '****\t****\t****\t1111' },
    { text: '4111  1111  1111  1111', masked: '****  ****  ****  1111' },
    { text: '４１１１１１１１１１１１１１１１', masked: '************１１１１' },
    { text: 'cardNumber=4111+1111+1111+1111', masked: 'cardNumber=****+****+****+1111' },
    { text: '4111 - 1111', masked: '4111 - 1111' },
  ])('$text is shown as $masked', ({ text, masked }) => {
    expect(maskCardNumbers(text)).toBe(masked);
  });

  it('masks a 422 fieldValue and messages in every view of the error: fields, message, body, JSON, inspect', async () => {
    server = await startLoopbackServer((_request, res) =>
      json(res, 422, {
        ...errorBody(422, `Card ${card} is not accepted`),
        errors: [
          { fieldName: 'cardNumber', fieldValue: card, messages: [`${spaced} failed the check`] },
          { fieldName: 'amount', fieldValue: 4111111111111111 },
        ],
      }),
    );
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect(error.fieldErrors[0]).toMatchObject({ fieldName: 'cardNumber', fieldValue: '************1111' });
    expect(error.fieldErrors[1]).toMatchObject({ fieldName: 'amount', fieldValue: '************1111' });
    const views = [error.message, error.developerMessage ?? '', JSON.stringify(error), JSON.stringify(error.body), inspect(error, { depth: Infinity }), error.stack ?? ''];
    for (const view of views) {
      expect(view).not.toContain(card);
      expect(view).not.toContain(spaced);
    }
    expect(error.message).toContain('************1111');
  });

  it('masks a card number in the URL of the error and of the hooks (a card in a query or a path)', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 404, errorBody(404)));
    const urls: string[] = [];
    const client = secretClient(server.url, { onRequest: (log) => void urls.push(log.url), onResponse: (log) => void urls.push(log.url) });
    const error = await failure(client.transactions.get(`${card} `.trim()));
    expect(error.url).toMatch(/\/transactions\/\*{12}1111$/);
    expect(JSON.stringify(error)).not.toContain(card);
    await expect.poll(() => urls.length).toBe(2);
    for (const url of urls) expect(url).not.toContain(card);
    expect(server.requests[0]!.url).toContain(card);
  });

  it('hides what the contract marks sensitive, whatever its length: a CVN or a wallet token echoed in a 422, a short card number', async () => {
    server = await startLoopbackServer((_request, res) =>
      json(res, 422, {
        ...errorBody(422),
        errors: [
          { fieldName: 'cvn', fieldValue: '123', messages: ['is not 3 or 4 digits'] },
          { fieldName: 'creditCard.cardNumber', fieldValue: '41111111', messages: ['is too short'] },
          { fieldName: 'walletBPayToken', fieldValue: 'tok_3f9a', messages: ['expired'] },
          { fieldName: 'principalAmount', fieldValue: '123', messages: ['too small'] },
        ],
        cvn: '9876',
      }),
    );
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect(error.fieldErrors.map((f) => f.fieldValue)).toEqual(['[redacted]', '****1111', '[redacted]', '123']);
    expect((error.body as { cvn?: string }).cvn).toBe('[redacted]');
    for (const view of [JSON.stringify(error), inspect(error, { depth: Infinity })]) {
      for (const secret of ['tok_3f9a', '9876', '41111111', '"fieldValue":"123","messages":["is not']) expect(view).not.toContain(secret);
    }
  });

  it('masks card numbers in the field errors of an error the client makes itself', () => {
    const error = new PaymentsError({ kind: 'input', message: 'refused', fieldErrors: [{ fieldName: 'cardNumber', fieldValue: card }] });
    expect(error.fieldErrors[0]!.fieldValue).toBe('************1111');
  });
});
