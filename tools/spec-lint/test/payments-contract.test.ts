// The payments contract checked against the operation table agreed with the client and mock engineers: every
// operation, its id, tag and key type, and the house conventions that the linter cannot see across files.
import { paymentsContract, readOpenApiContract, type OpenApiContractModel, type OpenApiOperation } from '@paykit/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { lint } from './redocly-cli.js';

type Key = 'secret' | 'secret*' | 'publishable';
/** method, path, operationId, tag, key; `secret*`: the reference does not say, so the secret key is used. */
const operationTable: [string, string, string, string, Key][] = [
  ['GET', '/', 'getFacility', 'Facility', 'secret*'],
  ['GET', '/api-keys/latest', 'getLatestApiKey', 'API keys', 'secret*'],
  ['GET', '/businesses/{supplierBusinessCode}', 'getBusiness', 'Businesses', 'secret*'],
  ['GET', '/businesses', 'listBusinesses', 'Businesses', 'secret*'],
  ['GET', '/businesses/{supplierBusinessCode}/accepted-cards', 'listBusinessAcceptedCards', 'Businesses', 'publishable'],
  ['GET', '/businesses/{supplierBusinessCode}/card-surcharges', 'listBusinessCardSurcharges', 'Businesses', 'publishable'],
  ['POST', '/businesses/{supplierBusinessCode}/query-card-surcharge', 'queryBusinessCardSurcharge', 'Businesses', 'secret*'],
  ['POST', '/single-use-tokens', 'createSingleUseToken', 'Single-use tokens', 'publishable'],
  ['POST', '/single-use-tokens/{singleUseTokenId}/three-ds2-authentication', 'authenticateSingleUseTokenThreeDS2', 'Single-use tokens', 'secret'],
  ['GET', '/methods', 'listPaymentMethods', 'Payment methods', 'secret*'],
  ['GET', '/transactions/{receiptNumber}', 'getTransaction', 'Transactions', 'secret'],
  ['GET', '/transactions', 'listTransactions', 'Transactions', 'secret'],
  ['GET', '/transactions/for-reference-number', 'listTransactionsForReferenceNumber', 'Transactions', 'secret'],
  ['GET', '/transactions/for-settlement-date', 'listTransactionsForSettlementDate', 'Transactions', 'secret'],
  ['GET', '/transactions/for-account-token/{accountToken}', 'listTransactionsForAccountToken', 'Transactions', 'secret'],
  ['GET', '/transactions/for-credit-card', 'listTransactionsForCreditCard', 'Transactions', 'secret'],
  ['GET', '/transactions/for-bank-account', 'listTransactionsForBankAccount', 'Transactions', 'secret'],
  ['GET', '/transactions/for-nz-bank-account', 'listTransactionsForNzBankAccount', 'Transactions', 'secret'],
  ['GET', '/transactions/suspended', 'listSuspendedTransactions', 'Transactions', 'secret'],
  ['GET', '/transactions/returns', 'listReturnedTransactions', 'Transactions', 'secret'],
  ['GET', '/transactions/open-preauths', 'listOpenPreauths', 'Transactions', 'secret'],
  ['GET', '/transactions/{receiptNumber}/refunds', 'listTransactionRefunds', 'Transactions', 'secret'],
  ['GET', '/transactions/{receiptNumber}/retries', 'listTransactionRetries', 'Transactions', 'secret'],
  ['POST', '/transactions', 'createTransaction', 'Transactions', 'secret'],
  ['POST', '/transactions/{receiptNumber}/void', 'voidTransaction', 'Transactions', 'secret'],
  ['GET', '/customers/{customerId}/transactions', 'listTransactionsForCustomer', 'Transactions', 'secret'],
  ['GET', '/recurring-payments/{paymentScheduleId}/transactions', 'listTransactionsForRecurringPayment', 'Transactions', 'secret'],
  ['GET', '/payment-batches/{paymentBatchId}/transactions', 'listTransactionsForPaymentBatch', 'Transactions', 'secret'],
  ['GET', '/customers/{customerId}', 'getCustomer', 'Customers', 'secret'],
  ['GET', '/customers', 'searchCustomers', 'Customers', 'secret'],
  ['POST', '/customers', 'createCustomer', 'Customers', 'secret'],
  ['PUT', '/customers/{customerId}', 'updateCustomer', 'Customers', 'secret'],
  ['PATCH', '/customers/{customerId}', 'changeCustomerStatus', 'Customers', 'secret'],
  ['GET', '/customers/{customerId}/accounts', 'listAccountsForCustomer', 'Accounts', 'secret*'],
  ['POST', '/customers/{customerId}/accounts', 'registerAccountForCustomer', 'Accounts', 'secret*'],
  ['GET', '/accounts/{accountToken}', 'getAccount', 'Accounts', 'secret*'],
  ['PATCH', '/accounts/{accountToken}', 'updateAccount', 'Accounts', 'secret*'],
  ['DELETE', '/accounts/{accountToken}', 'disableAccount', 'Accounts', 'secret*'],
  ['POST', '/accounts', 'registerAccount', 'Accounts', 'secret*'],
  ['GET', '/customers/{customerId}/recurring-payments', 'listRecurringPaymentsForCustomer', 'Recurring payments', 'secret*'],
  ['POST', '/customers/{customerId}/recurring-payments', 'createRecurringPaymentForCustomer', 'Recurring payments', 'secret*'],
  ['GET', '/recurring-payments/{paymentScheduleId}', 'getRecurringPayment', 'Recurring payments', 'secret*'],
  ['PUT', '/recurring-payments/{paymentScheduleId}', 'updateRecurringPayment', 'Recurring payments', 'secret*'],
  ['PATCH', '/recurring-payments/{paymentScheduleId}', 'stopRecurringPayment', 'Recurring payments', 'secret*'],
  ['GET', '/credit-cards/card-schemes/{cardBIN}', 'getCreditCardScheme', 'Credit cards', 'secret*'],
  ['POST', '/aliases', 'registerAlias', 'Aliases', 'secret'],
  ['POST', '/customers/{customerId}/aliases', 'registerAliasForCustomer', 'Aliases', 'secret'],
  ['PATCH', '/aliases/{id}', 'deregisterAlias', 'Aliases', 'secret'],
  ['GET', '/aliases/{id}', 'getAlias', 'Aliases', 'secret'],
  ['GET', '/customers/{customerId}/aliases', 'listAliasesForCustomer', 'Aliases', 'secret'],
  ['POST', '/payment-files', 'uploadPaymentFile', 'Payment files', 'secret*'],
  ['GET', '/payment-files', 'listPaymentFiles', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}', 'getPaymentFile', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}/errors', 'listPaymentFileErrors', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}/csv2', 'downloadPaymentFileCsv2Report', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}/csv', 'downloadPaymentFileCsvReport', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}/flat-file', 'downloadPaymentFileFlatFileReport', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}/mts-rejects', 'downloadPaymentFileMtsRejectsReport', 'Payment files', 'secret*'],
  ['GET', '/payment-files/{paymentFileId}/payment-batches', 'listPaymentBatchesForPaymentFile', 'Payment batches', 'secret*'],
  ['GET', '/payment-batches/{paymentBatchId}', 'getPaymentBatch', 'Payment batches', 'secret*'],
  ['POST', '/mandate-agreements', 'createMandateAgreement', 'Mandate agreements', 'secret*'],
  ['POST', '/customers/{customerId}/mandate-agreements', 'createMandateAgreementForCustomer', 'Mandate agreements', 'secret*'],
  ['GET', '/mandate-agreements', 'listMandateAgreements', 'Mandate agreements', 'secret*'],
  ['PATCH', '/mandate-agreements/{agreementToken}', 'updateMandateAgreement', 'Mandate agreements', 'secret*'],
];

/** The error responses every operation gives, and those that depend on a path parameter or a request body. */
const generalErrors = ['400', '401', '403', '406', '429', '500', '502', '503', '504'];

type Node = Record<string, any>;
type Operation = OpenApiOperation & { operation: Node };

let spec: Node;
let model: OpenApiContractModel;
let operations: Operation[];

const deref = (value: unknown) => model.deref(value) as Node | undefined;
const parametersOf = (o: Operation): Node[] => o.parameters.map((p) => p.node);

const label = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;
const isErrorStatus = (code: string) => /^[45]/.test(code) || code === 'default';

// Bundles the real contract with Redocly in process.
beforeAll(async () => {
  model = await readOpenApiContract(paymentsContract);
  spec = model.document;
  operations = model.operations;
}, 30_000);

describe('payments contract inventory', () => {
  it('has exactly the 64 operations of the table, no more and no fewer', () => {
    const actual = operations.map(label).sort();
    const expected = operationTable.map(([method, path]) => `${method} ${path}`).sort();
    expect(expected).toHaveLength(64);
    expect(actual).toEqual(expected);
  });

  it('gives every operation the operationId and the single declared tag of the table', () => {
    const declaredTags = new Set((spec.tags as Node[]).map((t) => t.name));
    for (const tag of spec.tags as Node[]) expect(tag.description, `tag ${tag.name}`).toBeTruthy();
    for (const [method, path, operationId, tag] of operationTable) {
      const operation = (spec.paths as Node)[path]?.[method.toLowerCase()];
      expect(operation?.operationId, `${method} ${path}`).toBe(operationId);
      expect(operation?.tags, `${method} ${path}`).toEqual([tag]);
      expect(declaredTags.has(tag), `tag ${tag} declared`).toBe(true);
    }
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('requires exactly one key per operation: publishable for the three browser resources, secret otherwise', () => {
    for (const [method, path, , , key] of operationTable) {
      const operation = (spec.paths as Node)[path][method.toLowerCase()];
      const expected = key === 'publishable' ? 'publishableKey' : 'secretKey';
      expect(operation.security, `${method} ${path}`).toEqual([{ [expected]: [] }]);
      if (key === 'secret*') {
        const description = String(operation.description).replace(/\s+/g, ' ');
        expect(description, `${method} ${path} says the key type is assumed`).toContain(
          'does not state which key type this resource takes; this contract uses the secret key',
        );
      }
    }
    expect(operationTable.filter(([, , , , key]) => key === 'publishable')).toHaveLength(3);
  });

  it('has a summary and a description on every operation', () => {
    for (const o of operations) {
      expect(o.operation.summary, label(o)).toBeTruthy();
      expect(o.operation.description, label(o)).toBeTruthy();
    }
  });

  it('declares every path parameter, each limited to 255 characters', () => {
    for (const o of operations) {
      const names = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = parametersOf(o).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), label(o)).toEqual(names.sort());
      for (const p of declared) expect(deref(p.schema)?.maxLength, `${label(o)} ${p.name}`).toBe(255);
    }
  });

  it('lets every POST take the Idempotency-Key header (at most 60 printable ASCII characters)', () => {
    const posts = operations.filter((o) => o.method === 'post');
    expect(posts.length).toBeGreaterThan(0);
    for (const o of posts) {
      const key = parametersOf(o).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(key, label(o)).toBeDefined();
      const schema = deref(key?.schema);
      expect(schema?.maxLength, label(o)).toBe(60);
      const pattern = new RegExp(schema?.pattern);
      expect(pattern.test('6f1c1f0e-2b7d-4a43-9c55-0d9b1f3a7e21')).toBe(true);
      expect(pattern.test('x'.repeat(61))).toBe(false);
      expect(pattern.test('caf\u00e9')).toBe(false);
    }
  });

  it('declares the Location header on every 201 response', () => {
    const created = operations.filter((o) => o.operation.responses['201']);
    expect(created.map(label)).toContain('POST /transactions');
    expect(created.map(label)).toContain('POST /aliases');
    for (const o of created) {
      const response = deref(o.operation.responses['201']);
      expect(deref(response?.headers?.Location), label(o)).toMatchObject({ schema: { type: 'string' } });
    }
  });

  it('describes every error response with the Error body and an example', () => {
    for (const o of operations) {
      for (const [code, raw] of Object.entries(o.operation.responses as Node)) {
        if (!isErrorStatus(code)) continue;
        const media = deref(raw)?.content?.['application/json'];
        expect(media?.schema, `${label(o)} ${code}`).toEqual({ $ref: '#/components/schemas/Error' });
        expect(Object.keys(media?.examples ?? {}).length, `${label(o)} ${code} example`).toBeGreaterThan(0);
      }
    }
  });

  it('gives every operation the general error responses that apply to it', () => {
    for (const o of operations) {
      const codes = Object.keys(o.operation.responses);
      const expected = [...generalErrors];
      if (o.path.includes('{')) expected.push('404');
      if (o.operation.requestBody) expected.push('415', '422');
      for (const code of expected) expect(codes, label(o)).toContain(code);
    }
  });

  it('has an example for every request body and every success body', () => {
    for (const o of operations) {
      const bodies: [string, Node][] = [];
      const request = deref(o.operation.requestBody);
      for (const [type, media] of Object.entries(request?.content ?? {})) bodies.push([`request ${type}`, media as Node]);
      for (const [code, raw] of Object.entries(o.operation.responses as Node)) {
        if (!code.startsWith('2')) continue;
        for (const [type, media] of Object.entries(deref(raw)?.content ?? {})) bodies.push([`${code} ${type}`, media as Node]);
      }
      for (const [where, media] of bodies) {
        expect(Object.keys(media.examples ?? {}).length, `${label(o)} ${where}`).toBeGreaterThan(0);
      }
    }
  });

  it('answers POST /transactions with 201 or 202 and serves GET /transactions as JSON and CSV', () => {
    const create = (spec.paths as Node)['/transactions'].post.responses;
    expect(Object.keys(create)).toEqual(expect.arrayContaining(['201', '202']));
    const list = deref((spec.paths as Node)['/transactions'].get.responses['200']);
    expect(Object.keys(list?.content ?? {}).sort()).toEqual(['application/json', 'text/csv']);
  });

  it('lists the status codes the reference gives for the token, 3D Secure, alias and customer endpoints', () => {
    const expectations: [string, string, string[]][] = [
      ['post', '/single-use-tokens', ['200', '401', '422', '429']],
      ['post', '/single-use-tokens/{singleUseTokenId}/three-ds2-authentication', ['200', '401', '404', '422', '429', '503']],
      ['post', '/aliases', ['201', '422']],
      ['post', '/customers/{customerId}/aliases', ['201', '422']],
      ['patch', '/aliases/{id}', ['204', '404', '422']],
      ['get', '/aliases/{id}', ['200', '404']],
      ['get', '/customers/{customerId}/aliases', ['200', '404']],
      ['post', '/customers', ['201', '409']],
      ['get', '/methods', ['200', '401', '403']],
    ];
    for (const [method, path, codes] of expectations) {
      const responses = (spec.paths as Node)[path][method].responses;
      expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(codes));
    }
  });

  it('declares both alias webhooks with the signature header, the envelope and a 200 answer', () => {
    const webhooks = spec.webhooks as Node;
    expect(Object.keys(webhooks).sort()).toEqual(['alias.payment.received', 'alias.registered']);
    const payloads: Record<string, string> = {
      'alias.registered': '#/components/schemas/Alias',
      'alias.payment.received': '#/components/schemas/Transaction',
    };
    for (const [event, data] of Object.entries(payloads)) {
      const post = webhooks[event].post;
      const signature = (post.parameters as Node[]).map((p) => deref(p) ?? {}).find((p) => p.name === 'X-Webhook-Signature');
      expect(signature?.in, event).toBe('header');
      const pattern = new RegExp(deref(signature?.schema)?.pattern);
      expect(pattern.test('t=1772410530000,v1=0a1b2c3d')).toBe(true);
      expect(pattern.test('v1=0a1b2c3d,t=1772410530000')).toBe(false);
      const envelope = deref(post.requestBody.content['application/json'].schema);
      expect(Object.keys(envelope?.properties ?? {}).sort(), event).toEqual(['data', 'eventType', 'id', 'timestamp']);
      expect(envelope?.properties.eventType.const, event).toBe(event);
      expect(envelope?.properties.data, event).toEqual({ $ref: data });
      expect(deref(envelope?.properties.timestamp)?.format, event).toBe('date-time');
      expect(Object.keys(post.responses), event).toEqual(['200']);
    }
  });
});

describe('payments contract lint', () => {
  // The Redocly CLI as a process on the whole contract: 4 s at a load average of 20 on this 2-core machine.
  it('passes redocly lint with the repo config with no errors and no warnings', { timeout: 30_000 }, async () => {
    const report = await lint(paymentsContract.api);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
