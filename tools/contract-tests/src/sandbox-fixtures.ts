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
    const singleUseTokenId = await f.fresh('singleUseTokenId');
    return (await f.post(`/customers/${await f.value('customerId')}/accounts`, testKeys.secretKey, { singleUseTokenId })).accountToken as string;
  },
  receiptNumber: async (f) => {
    const payment = { transactionType: 'PAYMENT', singleUseTokenId: await f.fresh('singleUseTokenId'), supplierBusinessCode: business, principalAmount: 10, entryMode: 'ECOMMERCE' };
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
  private madeInOrder: string[] = [];
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
    this.madeInOrder = [];
    this.counter = 0;
  }

  next(): number {
    return ++this.counter;
  }

  /** A real value for the parameter, made once per reset. */
  value(name: string): Promise<string> {
    let value = this.made.get(name);
    if (!value) {
      value = this.fresh(name);
      this.made.set(name, value);
    }
    return value;
  }

  /** A real value for the parameter, made anew. */
  async fresh(name: string): Promise<string> {
    const value = await makers[name]!(this);
    this.madeInOrder.push(value);
    return value;
  }

  /**
   * Every value made since the reset, in the order it was made. The same requests after another reset make as many
   * values in the same order, but not the same identifiers: the sandbox's reset keeps its number sequence, so that no
   * identifier is handed out twice (`fixtureRenaming` reads one set's identifiers as the other's).
   */
  values(): string[] {
    return [...this.madeInOrder];
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

/**
 * Reads identifiers made for one set of fixtures as those made at the same place for another set (`values()` of two
 * sets made by the same requests): in a JSON value, each `from[i]` becomes `to[i]`, as a whole string or as part of
 * one (a link's address) between characters that cannot continue an identifier. Nothing else changes.
 */
export function fixtureRenaming(from: readonly string[], to: readonly string[]): (value: unknown) => unknown {
  if (from.length !== to.length) throw new Error(`the two sets of fixtures differ: ${from.length} values made against ${to.length}`);
  const renamed = new Map<string, string>();
  from.forEach((value, index) => {
    const target = to[index]!;
    if (renamed.has(value) && renamed.get(value) !== target) throw new Error(`${value} stands for two values of the other set of fixtures`);
    if (value !== target) renamed.set(value, target);
  });
  if (renamed.size === 0) return (value) => value;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?<![\\w-])(?:${[...renamed.keys()].map(escape).join('|')})(?![\\w-])`, 'g');
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(pattern, (identifier) => renamed.get(identifier)!);
    if (Array.isArray(value)) return value.map(rename);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, rename(field)]));
    return value;
  };
  return rename;
}
