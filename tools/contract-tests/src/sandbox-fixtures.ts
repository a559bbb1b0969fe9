import type { PaymentsSandbox } from '@paykit/mock-server';
import type { ExampleRequest } from './example-request.js';
import { testKeys } from './payments-invoker.js';

/**
 * The payments sandbox keeps state, so the spec's example identifiers (a receipt number, an alias id) name nothing
 * there. Before a case, the identifiers its request names (path parameters, and top-level body fields of the same
 * names) are replaced by real ones, made through the sandbox's API on a freshly reset sandbox. The makers are keyed by
 * the contract's parameter names, not by operation: a new operation on these resources needs nothing here.
 */
type Maker = (fixtures: SandboxFixtures) => Promise<string>;

const business = 'TEST_BUSINESS';

const makers: Record<string, Maker> = {
  supplierBusinessCode: async () => business,
  singleUseTokenId: async (f) => {
    const token = await f.post('/single-use-tokens', testKeys.publishableKey, {
      supplierBusinessCode: business,
      accountType: 'CREDIT_CARD',
      cardNumber: '4111111111111111',
      expiryDateMonth: '12',
      expiryDateYear: String(new Date().getUTCFullYear() + 3),
    });
    return token.singleUseTokenId as string;
  },
  customerId: async (f) => (await f.post('/customers', testKeys.secretKey, { customerNumber: `FIXTURE-${f.next()}`, customerName: 'Fixture' })).customerId as string,
  accountToken: async (f) => {
    // A token of its own: the one the request may name must stay unused.
    const singleUseTokenId = await makers.singleUseTokenId!(f);
    return (await f.post(`/customers/${await f.value('customerId')}/accounts`, testKeys.secretKey, { singleUseTokenId })).accountToken as string;
  },
  receiptNumber: async (f) => {
    const payment = { transactionType: 'PAYMENT', singleUseTokenId: await makers.singleUseTokenId!(f), supplierBusinessCode: business, principalAmount: 10, entryMode: 'ECOMMERCE' };
    return (await f.post('/transactions', testKeys.secretKey, payment)).receiptNumber as string;
  },
  paymentScheduleId: async (f) => (await f.post(`/customers/${await f.value('customerId')}/recurring-payments`, testKeys.secretKey, {})).paymentScheduleId as string,
  paymentFileId: async (f) => (await f.post('/payment-files', testKeys.secretKey, {})).paymentFileId as string,
  paymentBatchId: async (f) => {
    const batches = await f.get(`/payment-files/${await f.value('paymentFileId')}/payment-batches`);
    return (batches.data as Array<{ paymentBatchId: string }>)[0]!.paymentBatchId;
  },
  agreementToken: async (f) => (await f.post('/mandate-agreements', testKeys.secretKey, {})).agreementToken as string,
  // The alias parameter is called `id`: a REGISTERED alias, so that every alias operation can succeed on it.
  id: async (f) => {
    const alias = await f.post('/aliases', testKeys.secretKey, { aliasAddress: `fixture-${f.next()}@pay.example.com`, type: 'STATIC', supplierBusinessCode: business });
    await f.sandbox.control.advanceClock({ ms: (await f.sandbox.control.getSettings()).aliasRegistrationDelayMs });
    return alias.id as string;
  },
};

export class SandboxFixtures {
  private made = new Map<string, Promise<string>>();
  private counter = 0;

  constructor(readonly sandbox: PaymentsSandbox) {}

  /** Whether the fixtures can make a real value for this parameter name. */
  static knows(name: string): boolean {
    return name in makers;
  }

  /** Empties the sandbox: the next values are made afresh. */
  async reset(): Promise<void> {
    await this.sandbox.control.resetSandbox();
    this.made.clear();
    this.counter = 0;
  }

  next(): number {
    return ++this.counter;
  }

  /** A real value for the parameter, made once per reset. */
  value(name: string): Promise<string> {
    let value = this.made.get(name);
    if (!value) {
      value = makers[name]!(this);
      this.made.set(name, value);
    }
    return value;
  }

  /** The example request with every identifier the fixtures know replaced by a real one. */
  async request(request: ExampleRequest): Promise<ExampleRequest> {
    const path = { ...request.path };
    for (const name of Object.keys(path)) if (SandboxFixtures.knows(name)) path[name] = await this.value(name);
    let body = request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const fields = { ...(body as Record<string, unknown>) };
      for (const name of Object.keys(fields)) if (SandboxFixtures.knows(name) && typeof fields[name] === 'string') fields[name] = await this.value(name);
      body = fields;
    }
    return { ...request, path, body };
  }

  async post(path: string, key: string, body: unknown): Promise<Record<string, unknown>> {
    return this.call('POST', path, key, body);
  }

  async get(path: string): Promise<Record<string, unknown>> {
    return this.call('GET', path, testKeys.secretKey);
  }

  private async call(method: string, path: string, key: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(this.sandbox.url + path, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, accept: 'application/json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`fixture ${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  }
}
