import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveredBody } from '../src/delivered-body.js';
import { mutationContext } from '../src/json-mutations.js';
import { firstSuccessCases, matrixCases, type MatrixCase } from '../src/matrix-cases.js';
import { MutatingProxy } from '../src/mutating-proxy.js';
import { loadContract } from '../src/openapi-document.js';
import { createPaymentsClients, invokePaymentsOperation, type PaymentsClients } from '../src/payments-invoker.js';
import { compareUnderMutation } from '../src/tolerance-comparison.js';
import { tolerancePlan, toleranceRules, withNewParameter } from '../src/tolerance-plan.js';
import { sharedPrism } from './support/mocks.js';
import { record } from './support/summary.js';

const document = loadContract('payments');
const context = mutationContext(document);
const allCases = matrixCases(document, { includeErrors: true });

/** Per operation: its first success case, and its validation error (else its first JSON error) for the error rules. */
function errorCaseOf(operationId: string): MatrixCase | undefined {
  const errors = allCases.filter((c) => c.operation.operationId === operationId && c.status >= 400 && c.mediaType === 'application/json');
  return errors.find((c) => c.status === 422) ?? errors[0];
}
const successCases = firstSuccessCases(allCases);
// Reports (CSV) are also mutated where they are not the first answer of their operation.
const reportCases = allCases.filter((c) => c.status < 300 && c.mediaType === 'text/csv' && !successCases.includes(c));
const cases = [
  ...successCases.flatMap((c) => [c, errorCaseOf(c.operation.operationId)].filter((x): x is MatrixCase => x !== undefined)),
  ...reportCases,
];

/**
 * Changes our client does not tolerate today, each a bug reported to the package's owner. These rows run with
 * `it.fails`: they pass while the client still fails them and turn red once it is fixed, so that they are removed
 * from here and counted again.
 */
const knownIntolerances: ReadonlyArray<{ operationId: string; rules: readonly string[]; reason: string }> = [];
const isKnownIntolerance = (operationId: string, rule: string) =>
  knownIntolerances.some((k) => k.operationId === operationId && k.rules.includes(rule));

const rows = cases.flatMap((matrixCase) =>
  toleranceRules.map((rule) => ({
    name: `${matrixCase.name} ~ ${rule.name}`,
    matrixCase,
    rule,
    known: isKnownIntolerance(matrixCase.operation.operationId, rule.name),
  })),
);

const mock = sharedPrism('payments');
let proxy: MutatingProxy;
let clients: PaymentsClients;
beforeAll(async () => {
  proxy = await MutatingProxy.start(mock.origin);
  clients = createPaymentsClients(proxy.origin + new URL(mock.url).pathname);
});
afterAll(async () => {
  await proxy?.close();
});

describe('payments tolerance suite: @paykit/payments under every change the service may make within v1', () => {
  it('reads identifier and open-enum fields from the spec', () => {
    expect([...context.identifierNames]).toEqual(expect.arrayContaining(['customerId', 'receiptNumber', 'singleUseTokenId']));
    expect([...context.openEnumNames]).toContain('cardType');
  });

  async function survives({ matrixCase, rule }: (typeof rows)[number]): Promise<void> {
    const { operation, request, prefer, mediaType } = matrixCase;
    const accept = matrixCase.status < 300 && mediaType ? { accept: mediaType } : {};

    proxy.reset({ prefer });
    const baseline = await invokePaymentsOperation(clients, operation.operationId, request, accept);
    proxy.assertHealthy();

    const { plan, report } = tolerancePlan(rule, context, prefer);
    proxy.reset(plan);
    const extended = rule.newRequestParameter ? withNewParameter(operation.method, request) : undefined;
    const mutated = await invokePaymentsOperation(clients, operation.operationId, extended?.request ?? request, {
      ...accept,
      ...(extended?.extraQuery ? { extraQuery: extended.extraQuery } : {}),
    });
    proxy.assertHealthy();

    const outcome = report();
    expect(compareUnderMutation(baseline, mutated, deliveredBody(proxy, outcome), outcome.restore)).toEqual([]);
    // The new parameter must reach the server: a client that drops or refuses it fails here or above.
    if (extended && rule.newRequestParameter) expect(outcome.applied).toBe(true);
    if (outcome.applied) record({ contract: 'payments', kind: 'mutation', operationId: operation.operationId, rule: rule.name });
  }

  it.each(rows.filter((row) => !row.known))('$name', survives);
  it.fails.each(rows.filter((row) => row.known))('$name (known intolerance, reported)', survives);
});
