import { describe, expect, it } from 'vitest';
import { contractValidator, type AnswerMessage, type Problem, type RequestMessage } from '../src/index.js';

const payments = contractValidator('payments');
const fileExchange = contractValidator('file-exchange');
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const cardToken = {
  supplierBusinessCode: 'TEST_BUSINESS',
  accountType: 'CREDIT_CARD',
  cardNumber: '4111111111111111',
  expiryDateMonth: '12',
  expiryDateYear: '2031',
};
const publishable = { authorization: basic('pk_1'), accept: 'application/json', 'content-type': 'application/json' };
const secret = { ...publishable, authorization: basic('sk_1') };

/** The rule and location of each problem: what a reader of the report acts on. */
const named = (problems: Problem[]) => problems.map((problem) => [problem.rule, problem.location]);

function request(method: string, path: string, message: RequestMessage): Problem[] {
  const matched = payments.match(method, path);
  if (!matched) throw new Error(`${method} ${path} matches no operation`);
  return payments.checkRequest(matched, message);
}

describe('the operation of a request', () => {
  it.each([
    ['POST', '/transactions', 'createTransaction', {}],
    ['GET', '/transactions/suspended', 'listSuspendedTransactions', {}],
    ['GET', '/transactions/123', 'getTransaction', { receiptNumber: '123' }],
    ['GET', '/transactions/12%203', 'getTransaction', { receiptNumber: '12 3' }],
    ['GET', '/transactions/123/', 'getTransaction', { receiptNumber: '123' }],
    ['post', '/single-use-tokens', 'createSingleUseToken', {}],
  ])('%s %s is %s', (method, path, id, pathParams) => {
    expect(payments.match(method, path)).toMatchObject({ operation: { id }, pathParams });
  });

  it.each([
    ['GET', '/no-such-resource'],
    ['DELETE', '/transactions'],
    ['GET', '/transactions/1/2/3/4'],
  ])('%s %s is none', (method, path) => {
    expect(payments.match(method, path)).toBeUndefined();
  });

  it('finds the file exchange’s operations, whose list path ends with a slash', () => {
    expect(fileExchange.match('GET', '/filesForDownload/')?.operation.id).toBe(fileExchange.match('GET', '/filesForDownload')?.operation.id);
    expect(fileExchange.match('POST', '/uploadedFiles/a.txt')).toMatchObject({ pathParams: { fileName: 'a.txt' } });
  });
});

describe('a request against the contract', () => {
  type Row = { name: string; method?: string; path?: string; message: RequestMessage; problems: string[][] };
  const token = (body: unknown, headers: Record<string, string> = publishable): RequestMessage => ({ headers, body: json(body) });
  const rows: Row[] = [
    { name: 'a correct card token request', message: token(cardToken), problems: [] },
    // The discriminator picks the card branch: one missing field is one problem, not one per account type.
    { name: 'a card token request without its card number', message: token({ ...cardToken, cardNumber: undefined }), problems: [['openapi:required', 'body.cardNumber']] },
    { name: 'a card number with a letter', message: token({ ...cardToken, cardNumber: '41111x' }), problems: [['openapi:pattern', 'body.cardNumber']] },
    { name: 'a CVN of five digits', message: token({ ...cardToken, cvn: '12345' }), problems: [['openapi:pattern', 'body.cvn']] },
    { name: 'an account type the contract does not have', message: token({ ...cardToken, accountType: 'CHEQUE' }), problems: [['openapi:enum', 'body.accountType']] },
    { name: 'no account type', message: token({ ...cardToken, accountType: undefined }), problems: [['openapi:required', 'body.accountType']] },
    { name: 'a number where text is due', message: token({ ...cardToken, expiryDateMonth: 12 }), problems: [['openapi:type', 'body.expiryDateMonth']] },
    { name: 'a body that is not JSON', message: { headers: publishable, body: '{"accountType":' }, problems: [['openapi:body', 'body']] },
    { name: 'no body', message: { headers: publishable }, problems: [['openapi:required', 'body']] },
    { name: 'a body of another media type', message: { headers: { ...publishable, 'content-type': 'text/plain' }, body: 'x' }, problems: [['openapi:content-type', 'header.Content-Type']] },
    { name: 'a body without Content-Type', message: { headers: { accept: 'application/json', authorization: basic('pk') }, body: json(cardToken) }, problems: [['openapi:content-type', 'header.Content-Type']] },
    { name: 'no credentials', message: token(cardToken, { accept: 'application/json', 'content-type': 'application/json' }), problems: [['openapi:security', 'header.Authorization']] },
    { name: 'an Idempotency-Key of 61 characters', message: token(cardToken, { ...publishable, 'idempotency-key': 'k'.repeat(61) }), problems: [['openapi:maxLength', 'header.Idempotency-Key'], ['openapi:pattern', 'header.Idempotency-Key']] },
    {
      name: 'an amount with three decimal places (x-paykit-decimal-places)',
      path: '/transactions',
      message: { headers: secret, body: json({ transactionType: 'PAYMENT', singleUseTokenId: 't', supplierBusinessCode: 'B', principalAmount: 10.001, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' }) },
      problems: [['decimal-places', 'body.principalAmount']],
    },
    {
      name: 'an amount off by floating-point error only (0.1 + 0.2)',
      path: '/transactions',
      message: { headers: secret, body: json({ transactionType: 'PAYMENT', singleUseTokenId: 't', supplierBusinessCode: 'B', principalAmount: 0.1 + 0.2, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' }) },
      problems: [],
    },
    { name: 'a body on an operation that takes none', method: 'GET', path: '/transactions/1', message: { headers: secret, body: '{}' }, problems: [['openapi:body', 'body']] },
  ];
  it.each(rows)('$name', ({ method = 'POST', path = '/single-use-tokens', message, problems }) => {
    const found = request(method, path, message);
    expect(named(found)).toEqual(problems);
    // What the message held is never copied into a problem.
    expect(JSON.stringify(found)).not.toMatch(/4111111111111111|41111x|12345|pk_1|sk_1/);
  });

  it('names where each rule comes from in the bundled spec, inside the branch the discriminator chose', () => {
    const [problem] = request('POST', '/single-use-tokens', token({ ...cardToken, cvn: '12345' }));
    expect(problem).toMatchObject({ side: 'request', source: expect.stringMatching(/^#\/components\/schemas\/CreditCardTokenRequest\/.*\/cvn\/pattern$/) });
  });

  it('reads a query value as its schema’s type', () => {
    const withQuery = (query: string) => ({ headers: secret, query: new URLSearchParams(query) });
    const list = payments.match('GET', '/transactions')!;
    expect(payments.checkRequest(list, withQuery(''))).toEqual([]);
    const typed = list.operation.parameters.find((parameter) => parameter.in === 'query');
    expect(typed).toBeDefined();
    expect(payments.checkRequest(list, withQuery(`${typed!.name}=TEST_BUSINESS`))).toEqual([]);
  });
});

describe('an answer against the contract', () => {
  const create = payments.operation('createSingleUseToken');
  const answer = (status: number, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): AnswerMessage => ({
    status,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : json(body) }),
  });
  type Row = { name: string; answer: AnswerMessage; problems: string[][] };
  const rows: Row[] = [
    { name: 'a status the operation does not answer', answer: answer(418, {}), problems: [['openapi:status', 'status']] },
    { name: 'an error answer that comes empty', answer: answer(500), problems: [['error-body', 'body']] },
    { name: 'an error answer of another media type', answer: answer(400, 'oops', { 'content-type': 'text/html' }), problems: [['openapi:content-type', 'header.Content-Type']] },
    { name: 'an answer whose body is not JSON', answer: answer(400, 'oops'), problems: [['openapi:body', 'body']] },
  ];
  it.each(rows)('$name', ({ answer: message, problems }) => {
    expect(named(payments.checkAnswer(create, message))).toEqual(problems);
  });

  it.each([
    ['an empty report (text/csv, no lines)', 'downloadPaymentFileCsvReport', 'text/csv', []],
    ['an empty text/plain report', 'downloadPaymentFileFlatFileReport', 'text/plain', []],
    ['an empty JSON success (not JSON at all)', 'listTransactions', 'application/json', [['openapi:body', 'body']]],
    ['an empty success of a media type the operation does not answer with', 'downloadPaymentFileCsvReport', 'text/html', [['openapi:body', 'body']]],
  ])('%s', (_, id, contentType, problems) => {
    expect(named(payments.checkAnswer(payments.operation(id), answer(200, '', { 'content-type': contentType })))).toEqual(problems);
  });

  it('a token the sandbox could answer with passes, and one with a wrong account type is named', () => {
    const ok = payments.checkAnswer(create, answer(200, { singleUseTokenId: 'abc', accountType: 'CREDIT_CARD', creditCard: { cardNumber: '4111' } }));
    expect(ok.filter((problem) => problem.location !== 'body.creditCard' && !problem.location.startsWith('body.creditCard.'))).toEqual([]);
    const wrong = payments.checkAnswer(create, answer(200, { singleUseTokenId: 'abc', accountType: 'CHEQUE' }));
    expect(named(wrong)).toContainEqual(['openapi:enum', 'body.accountType']);
    expect(wrong.every((problem) => problem.side === 'answer')).toBe(true);
  });
});

describe('the webhooks of a contract', () => {
  it('has an entry per event of the spec\'s `webhooks`, whose body schema refuses a wrong field', async () => {
    const { readFile } = await import('node:fs/promises');
    const spec = await readFile(new URL('../../../specs/payments/openapi.yaml', import.meta.url), 'utf8');
    const declared = [...spec.matchAll(/^webhooks:\n((?: {2}.*\n)+)/gm)][0]![1]!.split('\n').filter((line) => /^ {2}\S/.test(line)).map((line) => line.trim().replace(/:$/, ''));
    const webhooks = payments.contract.webhooks;
    expect(Object.keys(webhooks).sort()).toEqual(declared.sort());
    const body = webhooks['alias.registered']!.requestBody!.content.find((media) => media.mediaType === 'application/json')!.schema!;
    expect(payments.checkSchema(body, { eventType: 'alias.registered' }, 'request', 'body')).toEqual([]);
    expect(named(payments.checkSchema(body, { eventType: 'alias.registered', data: 'x' }, 'request', 'body'))).toEqual([['openapi:type', 'body.data']]);
    expect(Object.keys(contractValidator('file-exchange').contract.webhooks)).toEqual([]);
  });
});
