import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleRequest } from '../src/example-request.js';
import { deliveredBody } from '../src/delivered-body.js';
import { mutationContext } from '../src/json-mutations.js';
import { MutatingProxy, type ProxyPlan } from '../src/mutating-proxy.js';
import { loadContract } from '../src/openapi-document.js';
import { createPaymentsClients, invokePaymentsOperation, testKeys, type PaymentsClients } from '../src/payments-invoker.js';
import { sandboxCases, sandboxClients, type SandboxCase } from '../src/sandbox-cases.js';
import { fixtureRenaming, SandboxFixtures } from '../src/sandbox-fixtures.js';
import { compareUnderMutation } from '../src/tolerance-comparison.js';
import { tolerancePlan, toleranceRules, withNewParameter } from '../src/tolerance-plan.js';
import { record } from './support/summary.js';

/**
 * The tolerance suite with the payments sandbox as the server: every tolerated change, on the sandbox's own answers.
 * The sandbox keeps state, so a row's two calls (without and with the change) must get the same answer: a POST is
 * sent twice with one Idempotency-Key (the sandbox replays its answer); a PUT, PATCH or DELETE runs each time on
 * freshly made fixtures; a GET reads the same state twice. Fixtures made after a reset get new identifiers (the
 * sandbox's reset keeps its number sequence, so that it never hands out an identifier twice): the second call's
 * identifiers are read as the first call's before the two answers are compared.
 */
const document = loadContract('payments');
const context = mutationContext(document);
const all = sandboxCases(document);
const firstOf = (operationId: string, kind: SandboxCase['situation']['kind']) => all.find((c) => c.operation.operationId === operationId && c.situation.kind === kind);
const operationIds = [...new Set(all.map((c) => c.operation.operationId))];
// Per operation: its first success, and its invalid-body answer (422) or, without a body, an injected 503.
const cases = operationIds.flatMap((id) => [firstOf(id, 'success'), firstOf(id, 'invalid body') ?? all.find((c) => c.operation.operationId === id && c.status === 503)]).filter(
  (c): c is SandboxCase => c !== undefined,
);

const rows = cases.flatMap((matrixCase) => toleranceRules.map((rule) => ({ name: `${matrixCase.name} ~ ${rule.name}`, matrixCase, rule })));

let sandbox: PaymentsSandbox;
let fixtures: SandboxFixtures;
let proxy: MutatingProxy;
let clients: PaymentsClients;
let unchecked: PaymentsClients;
beforeAll(async () => {
  sandbox = await startPaymentsSandbox({ keys: { secret: [testKeys.secretKey], publishable: [testKeys.publishableKey] }, checkResponses: true });
  fixtures = new SandboxFixtures(sandbox);
  proxy = await MutatingProxy.start(sandbox.origin);
  const base = proxy.origin + new URL(sandbox.url).pathname;
  clients = createPaymentsClients(base);
  unchecked = sandboxClients(base, { secret: testKeys.secretKey, publishable: testKeys.publishableKey }, false);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

/** The row's request on fixtures made for it; made again before each call when the method changes state in place. */
let prepared: { name: string; request: ExampleRequest } | undefined;
async function prepare(matrixCase: SandboxCase, eachCall: boolean): Promise<ExampleRequest> {
  if (!eachCall && prepared?.name === matrixCase.name) return prepared.request;
  await fixtures.reset();
  const request = matrixCase.situation.kind === 'success' ? await fixtures.request(matrixCase.request) : { ...matrixCase.request, body: [] };
  prepared = { name: matrixCase.name, request };
  return request;
}

/** Every request of the row carries the same Idempotency-Key, so that the sandbox replays its first answer. */
const oneKey = (name: string, plan: ProxyPlan): ProxyPlan => ({
  ...plan,
  rewriteRequest: (request) => {
    const rewritten = plan.rewriteRequest ? plan.rewriteRequest(request) : request;
    if (!rewritten.headers['idempotency-key']) return rewritten;
    return { ...rewritten, headers: { ...rewritten.headers, 'idempotency-key': `tolerance ${name}`.slice(0, 60) } };
  },
});

describe('payments tolerance suite against the payments sandbox', () => {
  async function survives({ matrixCase, rule }: (typeof rows)[number]): Promise<void> {
    const { operation, situation } = matrixCase;
    const eachCall = ['PUT', 'PATCH', 'DELETE'].includes(operation.method);
    const using = situation.kind === 'invalid body' ? unchecked : clients;
    const accept = situation.kind === 'success' && situation.mediaType ? { accept: situation.mediaType } : {};
    const call = async (plan: ProxyPlan, extra: { request?: ExampleRequest; extraQuery?: Record<string, string> } = {}) => {
      const request = await prepare(matrixCase, eachCall);
      if (situation.kind === 'fault') await sandbox.control.injectFault({ fault: { status: situation.status, when: 'before' }, operationId: operation.operationId });
      proxy.reset(oneKey(matrixCase.name, plan));
      // The extended request keeps the identifiers of the fixtures made for this call.
      const sent = extra.request ? { ...extra.request, path: request.path } : request;
      const outcome = await invokePaymentsOperation(using, operation.operationId, sent, { ...accept, ...(extra.extraQuery ? { extraQuery: extra.extraQuery } : {}) });
      proxy.assertHealthy();
      return { outcome, fixtures: fixtures.values() };
    };

    const baseline = await call({});
    const { plan, report } = tolerancePlan(rule, context, undefined);
    const extended = rule.newRequestParameter ? withNewParameter(operation.method, prepared!.request) : undefined;
    const mutated = await call(plan, extended ?? {});

    const outcome = report();
    const asBaseline = fixtureRenaming(mutated.fixtures, baseline.fixtures);
    const restore = (body: unknown) => asBaseline(outcome.restore(body));
    expect(compareUnderMutation(baseline.outcome, mutated.outcome, deliveredBody(proxy, outcome), restore)).toEqual([]);
    if (extended && rule.newRequestParameter) expect(outcome.applied).toBe(true);
    expect(sandbox.violations()).toEqual([]);
    if (outcome.applied) record({ contract: 'payments (sandbox)', kind: 'mutation', operationId: operation.operationId, rule: rule.name });
  }

  it.each(rows)('$name', survives);
});
