import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { compareDocuments } from '../src/openapi/index.js';
import { rules } from '../src/rules/index.js';
import { fixturesDir, loadYamlFixture, outcomes, type Outcome } from './fixtures.js';

const CREATE = 'POST /transactions';
const GET = 'GET /transactions/{receiptNumber}';
const DELETE = 'DELETE /transactions/{receiptNumber}';
const CREATED_BODY = `${CREATE} response 201 application/json body<Transaction>`;
const GOT_BODY = `${GET} response 200 application/json body<Transaction>`;
const REQUEST_BODY = `${CREATE} request body application/json body<TransactionRequest>`;

const allowed = (rule: string, location: string): Outcome => ({ rule, verdict: 'allowed', location });
const breaking = (rule: string, location: string): Outcome => ({ rule, verdict: 'breaking', location });
const sorted = (list: Outcome[]): Outcome[] =>
  [...list].sort((a, b) => a.location.localeCompare(b.location) || a.rule.localeCompare(b.rule));

/** One fixture pair per rule, in test/fixtures/<rule>/, with every judgement it must produce. */
const cases: { fixture: string; expected: Outcome[] }[] = [
  { fixture: 'new-resource', expected: [allowed('new-resource', '/refunds')] },
  { fixture: 'new-http-verb', expected: [allowed('new-http-verb', 'PATCH /transactions/{receiptNumber}')] },
  {
    fixture: 'identifier-format-changed',
    // maxLength 64 -> 255 and a new pattern, wherever the Identifier is used: in responses and in path parameters.
    expected: [CREATED_BODY, GOT_BODY]
      .map((body) => `${body}.receiptNumber<Identifier>`)
      .concat([GET, DELETE].map((op) => `${op} parameter path receiptNumber schema<Identifier>`))
      .flatMap((location) => [allowed('identifier-format-changed', location), allowed('identifier-format-changed', location)]),
  },
  { fixture: 'new-optional-request-parameter', expected: [allowed('new-optional-request-parameter', `${GET} parameter query expand`)] },
  {
    fixture: 'new-response-property',
    // TreeNode is recursive (children: TreeNode[]): the walk must end and report the new property once per use.
    expected: [CREATED_BODY, GOT_BODY].map((body) => allowed('new-response-property', `${body}.tree<TreeNode>.depth`)),
  },
  { fixture: 'property-order-changed', expected: [CREATED_BODY, GOT_BODY].map((body) => allowed('property-order-changed', body)) },
  { fixture: 'reworded-documentation', expected: [allowed('reworded-documentation', `${CREATE} response 400 description`)] },
  { fixture: 'better-error-reporting', expected: [allowed('better-error-reporting', `${CREATE} response 422`)] },
  {
    fixture: 'report-filler-fields',
    expected: [
      allowed('report-filler-fields', 'GET /transactions/report response 200 text/csv body[].filler1'),
      allowed('reworded-documentation', 'GET /transactions/report response 200 text/csv body[].filler1 description'),
      allowed('report-filler-fields', 'GET /transactions/report response 200 text/csv body[].filler2'),
    ],
  },
  { fixture: 'new-open-enum-value', expected: [CREATED_BODY, GOT_BODY].map((body) => allowed('new-open-enum-value', `${body}.cardType`)) },
  { fixture: 'removed-path', expected: [breaking('removed-path', '/transactions/report')] },
  { fixture: 'removed-operation', expected: [breaking('removed-operation', DELETE)] },
  {
    fixture: 'removed-response-property',
    // The webhook payload is received by the client, so its request body is judged as a response.
    expected: [CREATED_BODY, GOT_BODY, 'POST webhook transactionCompleted request body application/json body<Transaction>'].map(
      (body) => breaking('removed-response-property', `${body}.amount`),
    ),
  },
  {
    fixture: 'response-property-no-longer-required',
    expected: [CREATED_BODY, GOT_BODY].map((body) => breaking('response-property-no-longer-required', `${body}.status`)),
  },
  { fixture: 'new-required-request-field', expected: [breaking('new-required-request-field', `${REQUEST_BODY}.currency`)] },
  { fixture: 'removed-request-property', expected: [breaking('removed-request-property', `${REQUEST_BODY}.reference`)] },
  {
    fixture: 'narrowed-request-type',
    // integer -> string, maxLength 50 -> 20, a new pattern, and enum value MOTO removed.
    expected: [
      breaking('narrowed-request-type', `${REQUEST_BODY}.amount`),
      breaking('narrowed-request-type', `${REQUEST_BODY}.entryMode`),
      breaking('narrowed-request-type', `${REQUEST_BODY}.reference`),
      breaking('narrowed-request-type', `${REQUEST_BODY}.reference`),
    ],
  },
  { fixture: 'removed-response-enum-value', expected: [CREATED_BODY, GOT_BODY].map((body) => breaking('removed-response-enum-value', `${body}.status`)) },
  {
    fixture: 'new-closed-response-enum-value',
    expected: [CREATED_BODY, GOT_BODY].map((body) => breaking('new-closed-response-enum-value', `${body}.status`)),
  },
  { fixture: 'changed-response-type', expected: [CREATED_BODY, GOT_BODY].map((body) => breaking('changed-response-type', `${body}.amount`)) },
  { fixture: 'changed-security', expected: [breaking('changed-security', `${DELETE} security`)] },
  {
    fixture: 'removed-success-response',
    expected: [breaking('removed-success-response', `${DELETE} response 204`), allowed('better-error-reporting', `${DELETE} response 404`)],
  },
  { fixture: 'changed-base-path', expected: [breaking('changed-base-path', 'servers[0].url')] },
  {
    fixture: 'new-request-enum-value',
    // A new value in a request enum widens what the server accepts; clients only send the values they know.
    expected: [allowed('new-request-enum-value', `${REQUEST_BODY}.entryMode`)],
  },
  {
    fixture: 'widened-request-type',
    // maxLength 50 -> 100, minimum 1 dropped, and a second request media type.
    expected: [
      allowed('widened-request-type', `${REQUEST_BODY}.amount`),
      allowed('widened-request-type', `${REQUEST_BODY}.reference`),
      allowed('widened-request-type', `${CREATE} request body application/x-www-form-urlencoded`),
    ],
  },
  { fixture: 'new-success-response', expected: [breaking('new-success-response', `${CREATE} response 202`)] },
  { fixture: 'renamed-operation-id', expected: [{ rule: 'renamed-operation-id', verdict: 'client-major', location: `${GET} operationId` }] },
  {
    fixture: 'unclassified-change',
    // A new 5xx response: the reference's list does not cover it, and no rule has been written for it.
    expected: [breaking('unclassified-change', `${CREATE} response 503`)],
  },
];

describe('OpenAPI rules, one fixture pair each', () => {
  it.each(cases)('$fixture', async ({ fixture, expected }) => {
    const before = await loadYamlFixture(fixture, 'before');
    const after = await loadYamlFixture(fixture, 'after');
    expect(outcomes(compareDocuments(before, after))).toEqual(sorted(expected));
    expect(expected.map((o) => o.rule)).toContain(fixture);
  });

  it.each(cases)('$fixture: comparing a version with itself finds nothing', async ({ fixture }) => {
    const after = await loadYamlFixture(fixture, 'after');
    expect(compareDocuments(after, structuredClone(after))).toEqual([]);
  });

  it('where several rules match a difference of the fixtures, only the intended, more specific one comes first', async () => {
    const overlaps = new Set<string>();
    for (const { fixture } of cases) {
      for (const difference of compareDocuments(await loadYamlFixture(fixture, 'before'), await loadYamlFixture(fixture, 'after'))) {
        const matching = rules.filter((r) => r.name !== 'unclassified-change' && r.matches(difference)).map((r) => r.name);
        if (matching.length > 1) overlaps.add(matching.join(' > '));
      }
    }
    expect([...overlaps].sort()).toEqual([
      'identifier-format-changed > narrowed-request-type',
      'identifier-format-changed > widened-request-type',
      'report-filler-fields > changed-response-type',
      'report-filler-fields > new-response-property',
      'reworded-documentation > report-filler-fields',
    ]);
  });

  it('every rule of the book has a fixture pair (SOAP-only rules in soap-<rule>)', async () => {
    const dirs = new Set(await readdir(fixturesDir));
    const missing = rules.map((r) => r.name).filter((name) => !dirs.has(name) && !dirs.has(`soap-${name}`));
    expect(missing).toEqual([]);
    expect(cases.map((c) => c.fixture).filter((name) => !dirs.has(name))).toEqual([]);
  });
});
