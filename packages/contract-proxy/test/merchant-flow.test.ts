import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublishableClient, createSecretClient } from '@paykit/payments';
import { debitCards, startPaymentsSandbox, type PaymentsSandbox } from '@paykit/payments-sandbox';
import { contractValidator } from '@paykit/contract-validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsSensitive, sensitiveKindOf } from '../src/generated/sensitive.js';
import { replayHar, startContractProxy, type ContractProxy, type Har } from '../src/index.js';
import { cardTokenRequest, paymentRequest, send } from './support/merchant.js';
import { startWitness, type Seen, type Witness } from './support/witness.js';

// A merchant's whole flow through the proxy, recorded, then replayed into a fresh sandbox. Both sandboxes are this
// file's own: a replay compares lists too, so the sandbox recorded from must hold this flow's data only. A witness
// between the proxy and the sandbox keeps the raw traffic, to look for each value the contract marks sensitive.

/**
 * Every value of the raw traffic that the contract marks sensitive (the generated table of `x-paykit-sensitive`, not a
 * list of ours), with its kind: marked headers and query parameters, marked properties at any depth of a JSON body,
 * field errors' echoes of a marked field, and the whole body of an operation marked so.
 */
function sensitiveValues(seen: readonly Seen[]): { kind: string; value: string }[] {
  const payments = contractValidator('payments');
  const found: { kind: string; value: string }[] = [];
  const walk = (value: unknown, kind: string | undefined) => {
    if (kind && (typeof value === 'string' || typeof value === 'number')) return void found.push({ kind, value: String(value) });
    if (Array.isArray(value)) return value.forEach((item) => walk(item, kind));
    if (!value || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    for (const [name, item] of Object.entries(object)) {
      const namer = (paymentsSensitive.echoes as Record<string, string>)[name];
      const echoed = namer && typeof object[namer] === 'string' ? sensitiveKindOf(paymentsSensitive.properties, String(object[namer]).split('.').pop()!) : undefined;
      walk(item, kind ?? sensitiveKindOf(paymentsSensitive.properties, name) ?? echoed);
    }
  };
  const json = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  for (const exchange of seen) {
    for (const [name, kind] of Object.entries(paymentsSensitive.parameters.header)) {
      const value = exchange.headers[name];
      if (typeof value === 'string') found.push({ kind, value: value.replace(/^Basic /, '') });
    }
    const url = new URL(exchange.path, 'http://x');
    for (const [name, value] of url.searchParams) {
      const kind = sensitiveKindOf(paymentsSensitive.parameters.query, name);
      if (kind) found.push({ kind, value });
    }
    const operation = payments.match(exchange.method, url.pathname.replace(/^\/rest\/v1/, ''))?.operation.id ?? '';
    const whole = (paymentsSensitive.bodies as Record<string, { request?: string; response?: string }>)[operation];
    walk(json(exchange.body), whole?.request);
    if (exchange.answer) walk(json(exchange.answer.body), whole?.response);
  }
  return found;
}

const accept = { accept: 'application/json' };
const cards = { visa: '4111111111111111', mastercard: '5555555555554444', amex: '378282246310005', debit: [...debitCards][0]! };
const cvn = '913';

/** Every string and number of a recording, the JSON bodies it holds as text read as JSON too, as text. */
function textLeaves(value: unknown): string[] {
  if (typeof value === 'number') return [String(value)];
  if (typeof value === 'string') {
    let inner: unknown;
    try {
      inner = /^[[{]/.test(value) ? JSON.parse(value) : undefined;
    } catch {
      inner = undefined;
    }
    return inner === undefined ? [value] : [value, ...textLeaves(inner)];
  }
  if (Array.isArray(value)) return value.flatMap(textLeaves);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...textLeaves(item)]);
  return [];
}

describe('a full merchant flow, recorded and replayed', () => {
  let recorded: PaymentsSandbox;
  let fresh: PaymentsSandbox;
  let proxy: ContractProxy;
  let witness: Witness;
  let dir: string;
  let har: Har;
  let text: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-proxy-flow-'));
    // The witness stands where the service would: the sandbox's links name the witness's address (its public origin).
    fresh = await startPaymentsSandbox();
    witness = await startWitness({ basePath: new URL(fresh.url).pathname, later: () => recorded.url });
    recorded = await startPaymentsSandbox({ publicOrigins: [new URL(witness.url).origin] });
    proxy = await startContractProxy({ upstream: witness.url, record: { file: join(dir, 'flow.har') } });
    const secretKey = recorded.keys.secret[0]!;
    const publishableKey = recorded.keys.publishable[0]!;
    const tokens = createPublishableClient({ apiKey: publishableKey, baseUrl: proxy.url });
    const payments = createSecretClient({ apiKey: secretKey, baseUrl: proxy.url });
    let key = 0;
    const post = (path: string, body: unknown, apiKey = secretKey) =>
      send(proxy.url, 'POST', path, { key: apiKey, headers: { ...accept, 'idempotency-key': `flow-${++key}` }, body });

    // Our clients: a Visa token with its security code, and a payment from it.
    const visa = (await tokens.singleUseTokens.create(cardTokenRequest(cards.visa, { cvn }) as never)).data as { singleUseTokenId: string };
    const paid = (await payments.transactions.create(paymentRequest(visa.singleUseTokenId, 12.5) as never)).data as { receiptNumber: string };
    await payments.transactions.get(paid.receiptNumber as never);
    // The merchant's own code: other schemes, a declined payment, a stored card, and the mistakes it makes.
    const mastercard = (await post('/single-use-tokens', cardTokenRequest(cards.mastercard), publishableKey)).json;
    const amex = (await post('/single-use-tokens', cardTokenRequest(cards.amex, { cvn: '1234' }), publishableKey)).json;
    const debit = (await post('/single-use-tokens', cardTokenRequest(cards.debit), publishableKey)).json;
    expect([mastercard.creditCard?.cardScheme, amex.creditCard?.cardScheme, debit.creditCard?.cardType]).toEqual(['MASTERCARD', 'AMEX', 'DEBIT']);
    const declined = (await post('/transactions', paymentRequest(amex.singleUseTokenId, 10.51))).json;
    const customer = (await post('/customers', { customerNumber: 'FLOW-1', customerName: 'Flow Customer' })).json;
    await post(`/customers/${customer.customerId}/accounts`, { singleUseTokenId: mastercard.singleUseTokenId });
    await send(proxy.url, 'GET', `/customers/${customer.customerId}/accounts`, { key: secretKey, headers: accept });
    await post('/transactions', { ...paymentRequest(debit.singleUseTokenId, 20), singleUseTokenId: debit.singleUseTokenId });
    await send(proxy.url, 'GET', `/transactions/${declined.receiptNumber}`, { key: secretKey, headers: accept });
    await send(proxy.url, 'GET', '/transactions', { key: secretKey, headers: accept });
    // Key-type mistakes: each key where the other is due, and a key the service does not know.
    expect((await post('/single-use-tokens', cardTokenRequest(cards.visa), secretKey)).status).toBeGreaterThanOrEqual(400);
    expect((await send(proxy.url, 'GET', '/transactions', { key: publishableKey, headers: accept })).status).toBeGreaterThanOrEqual(400);
    expect((await send(proxy.url, 'GET', '/transactions', { key: 'sk_nobody_knows', headers: accept })).status).toBe(401);
    await proxy.close();
    text = await readFile(join(dir, 'flow.har'), 'utf8');
    har = JSON.parse(text) as Har;
  });
  afterAll(async () => {
    await proxy?.close();
    await witness?.close();
    await Promise.all([recorded?.close(), fresh?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('records every exchange, with the type of key each used and the scheme of each masked card', () => {
    expect(har.log.entries).toHaveLength(16);
    const keyTypes = har.log.entries.map((entry) => entry._paykitKey?.type ?? 'unknown');
    expect(keyTypes.slice(-3)).toEqual(['secret', 'publishable', 'unknown']);
    const schemes = har.log.entries.flatMap((entry) => Object.values(entry._paykitMasked ?? {}).map((hint) => hint.scheme));
    expect(schemes).toEqual(expect.arrayContaining(['VISA', 'MASTERCARD', 'AMEX']));
  });

  it('holds no value of any field the contract marks sensitive, in requests or answers', () => {
    const values = sensitiveValues(witness.seen);
    // What the flow sent and got of each kind: the check below has something to find.
    const kinds = new Set(values.map((found) => found.kind));
    expect([...kinds].sort()).toEqual(['card-number', 'card-security-code', 'secret']);
    expect(values.filter((found) => found.kind === 'card-number').map((found) => found.value)).toEqual(expect.arrayContaining(Object.values(cards)));
    const leaves = textLeaves(har);
    expect(leaves).toContain('MASTERCARD'); // the leaves of the recorded bodies are read too
    for (const { kind, value } of values) {
      // A value of its own anywhere; a long one also as a part of any text (a 3-digit code would match a time).
      const found = leaves.filter((leaf) => leaf === value || (value.length >= 8 && leaf.includes(value)));
      expect(found, `a ${kind} value is in the recording`).toEqual([]);
    }
    for (const key of [...recorded.keys.secret, ...recorded.keys.publishable, 'sk_nobody_knows']) expect(text).not.toContain(key);
  });

  it('replays into a fresh sandbox with no difference: statuses, bodies, schemes and the key-type mistakes', async () => {
    const result = await replayHar(har, {
      target: fresh.url,
      secretKey: fresh.keys.secret[0]!,
      publishableKey: fresh.keys.publishable[0]!,
      cards: [...debitCards],
    });
    const differing = result.entries.filter((entry) => !entry.matches).map((entry) => ({ ...entry.differences, operation: entry.operation, status: [entry.recordedStatus, entry.replayedStatus] }));
    expect(differing).toEqual([]);
    expect(result).toMatchObject({ mismatches: 0, skipped: 0 });
    expect(result.entries).toHaveLength(16);
  });

  it('names a real difference: the same recording against a sandbox whose keys are others', async () => {
    const result = await replayHar(har, { target: fresh.url, secretKey: 'sk_wrong', publishableKey: 'pk_wrong' });
    expect(result.mismatches).toBeGreaterThan(10);
    expect(result.entries[0]).toMatchObject({ recordedStatus: 200, replayedStatus: 401, matches: false });
  });
});
