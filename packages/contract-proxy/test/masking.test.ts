import { contractValidator } from '@paykit/contract-validation';
import { describe, expect, it } from 'vitest';
import { paymentsSensitive } from '../src/generated/sensitive.js';
import { Masking, maskValue } from '../src/masking.js';

const payments = contractValidator('payments');
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)), json: value });
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

describe('a recording masks what the contract marks sensitive (x-paykit-sensitive), not a digit pattern', () => {
  const masking = new Masking('payments', ['sk_declared_secret_key']);
  const tokenRequest = { accountType: 'CREDIT_CARD', cardNumber: '5555555555554444', cvn: '913', expiryDateMonth: '12', expiryDateYear: '2031', supplierBusinessCode: 'B' };

  it('the security code and the card number of a token request, with what a replay needs of each', () => {
    const url = new URL('http://api.test/rest/v1/single-use-tokens');
    const masked = masking.request(payments.match('POST', '/single-use-tokens'), 'createSingleUseToken', url, { ...json(tokenRequest), headers: { authorization: basic('pk_live_publishable'), 'content-type': 'application/json' } });
    expect(JSON.parse(masked.body!)).toEqual({ ...tokenRequest, cardNumber: '************4444', cvn: '[redacted]' });
    expect(masked.headers).toContainEqual({ name: 'authorization', value: '[redacted]' });
    expect(masked.masked).toEqual({
      'body.cardNumber': { kind: 'card-number', length: 16, iin: '555555', last4: '4444', scheme: 'MASTERCARD' },
      'body.cvn': { kind: 'card-security-code', length: 3 },
    });
    expect(JSON.stringify(masked)).not.toMatch(/5555555555554444|"913"|pk_live_publishable/);
  });

  it('a key sent where the contract does not expect one (a query string, a body) is masked once the session knows it', () => {
    const url = new URL('http://api.test/rest/v1/transactions?apiKey=sk_declared_secret_key&page=2');
    const masked = masking.request(payments.match('GET', '/transactions'), 'listTransactions', url, { headers: { 'x-debug': 'key sk_declared_secret_key' }, body: Buffer.alloc(0) });
    expect(masked.url).toBe('http://api.test/rest/v1/transactions?apiKey=%5Bredacted%5D&page=2');
    expect(masked.query).toEqual([{ name: 'apiKey', value: '[redacted]' }, { name: 'page', value: '2' }]);
    expect(masked.headers).toEqual([{ name: 'x-debug', value: 'key [redacted]' }]);
    // Learnt from a credential, not only declared.
    const learner = new Masking('payments');
    learner.request(undefined, 'x', new URL('http://api.test/'), { headers: { authorization: basic('sk_learnt_from_header') }, body: Buffer.alloc(0) });
    expect(learner.request(undefined, 'x', new URL('http://api.test/?k=sk_learnt_from_header'), { headers: {}, body: Buffer.alloc(0) }).url).not.toContain('sk_learnt_from_header');
  });

  it('a marked name at any depth of an answer, and a field error’s echo of a marked field', () => {
    const answer = masking.answer('createSingleUseToken', json({ creditCard: { cardNumber: '555555xxxxxx4444', cardScheme: 'MASTERCARD' }, fieldErrors: [{ fieldName: 'cvn', fieldValue: '91', messages: ['too short'] }, { fieldName: 'currency', fieldValue: 'AUDD' }] }));
    expect(JSON.parse(answer.body!)).toEqual({
      creditCard: { cardNumber: '************4444', cardScheme: 'MASTERCARD' },
      fieldErrors: [{ fieldName: 'cvn', fieldValue: '[redacted]', messages: ['too short'] }, { fieldName: 'currency', fieldValue: 'AUDD' }],
    });
  });

  it('the whole body of an operation marked so (its secret field is not published)', () => {
    const [operation, side] = Object.entries(paymentsSensitive.bodies).flatMap(([id, sides]) => ('response' in sides ? [[id, sides.response] as const] : []))[0]!;
    expect(side).toBe('secret');
    expect(JSON.parse(masking.answer(operation, json({ key: 'sk_new_key', nested: { expires: 5 } })).body!)).toEqual({ key: '[redacted]', nested: { expires: '[redacted]' } });
  });

  it('keeps what is not marked: an order number of 16 digits, an account token', () => {
    const url = new URL('http://api.test/rest/v1/transactions');
    const body = { customerReferenceNumber: '1234567890123456', accountToken: '0000000000000004' };
    const masked = masking.request(payments.match('POST', '/transactions'), 'createTransaction', url, json(body));
    expect(JSON.parse(masked.body!)).toEqual(body);
  });

  it.each([
    ['card-number', '4111111111111111', '************1111'],
    ['card-number', '411111xxxxxxx111', '************x111'],
    ['card-security-code', '1234', '[redacted]'],
    ['secret', 'whatever', '[redacted]'],
  ] as const)('a %s value %s is kept as %s', (kind, value, kept) => {
    expect(maskValue(kind, value)).toBe(kept);
  });
});
