// Each house rule, run through the real CLI on a fixture that breaks it and one that follows it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir, lint } from './redocly-cli.js';

const pluginRules = join(fixturesDir, 'redocly.yaml');
/** The repo's redocly.yaml, for the rule that is configured there rather than written in the plugin. */
const repoConfig = undefined;

const messages = {
  errorBody: (code: string) => `Error response ${code} must have an application/json body that refs the Error schema.`,
  idempotencyKey: 'POST operations must declare the Idempotency-Key header parameter.',
  oneSecurity: 'Operations must require exactly one security scheme (one requirement with one scheme).',
  operationId: 'operationId must be camelCase and start with a verb.',
  rulesObject: 'The contract must carry its rules in a root `x-paykit-rules` object.',
  ruleMissing: (name: string) => `\`x-paykit-rules\` must hold the rule \`${name}\`.`,
  ruleUndescribed: (name: string) => `The rule \`${name}\` needs a description.`,
  assumptionUnused: (key: string) => `The assumption \`${key}\` is marked nowhere: add \`x-paykit-assumption: ${key}\` where it applies.`,
  assumptionKey: (key: string) => `The assumption key \`${key}\` must be kebab-case.`,
  assumptionText: (key: string, field: string) => `The assumption \`${key}\` needs a \`${field}\` text.`,
  assumptionKeywords: (key: string) => `The assumption \`${key}\` needs \`keywords\`: a list of phrases that name what it assumes.`,
  assumptionUnknown: (key: string) => `\`x-paykit-assumption\` names \`${key}\`, which the root \`x-paykit-assumptions\` does not hold.`,
  assumptionMalformed: '`x-paykit-assumption` must be an assumption key or a list of them.',
  sensitiveUnmarked: (what: string, name: string) =>
    `The ${what} \`${name}\` looks like card data or a credential: mark it \`x-paykit-sensitive: <kind>\` (card-number, card-security-code, card-expiry, secret), or \`x-paykit-sensitive: false\` with the reason in its description.`,
  sensitiveInvalid: '`x-paykit-sensitive` must be one of card-number, card-security-code, card-expiry, secret, or false.',
  sensitiveNoReason: '`x-paykit-sensitive: false` needs its reason in the description, in a sentence that starts "Not sensitive".',
  sensitiveScheme: (name: string) => `The security scheme \`${name}\` sends a credential in every request: mark it \`x-paykit-sensitive: secret\` (or another kind).`,
  sensitiveFrom: '`x-paykit-sensitive-from` must name another property of the same object.',
};

interface Case {
  rule: string;
  fixture: string;
  config: string | undefined;
  /** Every report of `rule` expected on the fixture, as [JSON pointer, message]; empty for a compliant fixture. */
  expected: [string, string][];
}

const cases: Case[] = [
  {
    rule: 'paykit/error-responses-use-error-body',
    fixture: 'error-body-violates.yaml',
    config: pluginRules,
    expected: [
      ['#/components/responses/ProblemResponse', messages.errorBody('400')],
      ['#/paths/~1things/get', messages.errorBody('404')],
      ['#/paths/~1things/get', messages.errorBody('500')],
      ['#/paths/~1things/get', messages.errorBody('default')],
    ],
  },
  { rule: 'paykit/error-responses-use-error-body', fixture: 'error-body-complies.yaml', config: pluginRules, expected: [] },
  {
    rule: 'paykit/posts-take-idempotency-key',
    fixture: 'idempotency-key-violates.yaml',
    config: pluginRules,
    expected: [
      ['#/paths/~1no-parameters/post', messages.idempotencyKey],
      ['#/paths/~1key-in-query/post', messages.idempotencyKey],
      ['#/paths/~1other-header/post', messages.idempotencyKey],
    ],
  },
  { rule: 'paykit/posts-take-idempotency-key', fixture: 'idempotency-key-complies.yaml', config: pluginRules, expected: [] },
  {
    rule: 'paykit/one-security-requirement',
    fixture: 'one-security-violates.yaml',
    config: pluginRules,
    expected: [
      ['#/paths/~1none/get/security', messages.oneSecurity],
      ['#/paths/~1alternatives/get/security', messages.oneSecurity],
      ['#/paths/~1both-at-once/get/security', messages.oneSecurity],
    ],
  },
  {
    rule: 'paykit/one-security-requirement',
    fixture: 'one-security-violates-no-root.yaml',
    config: pluginRules,
    expected: [['#/paths/~1inherits-nothing/get', messages.oneSecurity]],
  },
  { rule: 'paykit/one-security-requirement', fixture: 'one-security-complies.yaml', config: pluginRules, expected: [] },
  {
    rule: 'paykit/client-rules-present',
    fixture: 'client-rules-violates.yaml',
    config: pluginRules,
    expected: [
      ['#/x-paykit-rules', messages.ruleMissing('pagination')],
      ['#/x-paykit-rules/retry', messages.ruleUndescribed('retry')],
    ],
  },
  { rule: 'paykit/client-rules-present', fixture: 'client-rules-absent.yaml', config: pluginRules, expected: [['#/', messages.rulesObject]] },
  { rule: 'paykit/client-rules-present', fixture: 'client-rules-complies.yaml', config: pluginRules, expected: [] },
  {
    rule: 'paykit/assumptions-declared',
    fixture: 'assumptions-violates.yaml',
    config: pluginRules,
    expected: [
      ['#/x-paykit-assumptions/unused', messages.assumptionUnused('unused')],
      ['#/x-paykit-assumptions/Bad_Key', messages.assumptionKey('Bad_Key')],
      ['#/x-paykit-assumptions/incomplete', messages.assumptionText('incomplete', 'assume')],
      ['#/x-paykit-assumptions/incomplete', messages.assumptionText('incomplete', 'confirm')],
      ['#/x-paykit-assumptions/incomplete', messages.assumptionKeywords('incomplete')],
      ['#/paths/~1things/get/x-paykit-assumption', messages.assumptionUnknown('missing')],
      ['#/paths/~1things/get/parameters/0/x-paykit-assumption', messages.assumptionMalformed],
    ],
  },
  { rule: 'paykit/assumptions-declared', fixture: 'assumptions-complies.yaml', config: pluginRules, expected: [] },
  {
    rule: 'paykit/sensitive-marked',
    fixture: 'sensitive-violates.yaml',
    config: pluginRules,
    expected: [
      // A name that looks like card data or a credential, unmarked: a parameter, and a property in three spellings.
      ['#/paths/~1cards/post/parameters/0', messages.sensitiveUnmarked('parameter', 'apiKey')],
      ['#/components/schemas/Card/properties/cardNumber', messages.sensitiveUnmarked('property', 'cardNumber')],
      ['#/components/schemas/Card/properties/cvv2', messages.sensitiveUnmarked('property', 'cvv2')],
      ['#/components/schemas/Card/properties/security_code', messages.sensitiveUnmarked('property', 'security_code')],
      // `false` without its reason: on a parameter, on the schema a property's $ref leads to, inline.
      ['#/paths/~1cards/post/parameters/1', messages.sensitiveNoReason],
      ['#/components/schemas/Card/properties/expiryMonth', messages.sensitiveNoReason],
      ['#/components/schemas/Card/properties/privateKey', messages.sensitiveNoReason],
      // A value that is not a kind: on a parameter, beside a $ref, on a whole body, on a security scheme.
      ['#/paths/~1cards/post/parameters/2/x-paykit-sensitive', messages.sensitiveInvalid],
      ['#/components/schemas/Card/properties/password/x-paykit-sensitive', messages.sensitiveInvalid],
      ['#/paths/~1cards/post/responses/200/content/application~1json/schema/x-paykit-sensitive', messages.sensitiveInvalid],
      ['#/components/securitySchemes/key/x-paykit-sensitive', messages.sensitiveInvalid],
      // A scheme that sends a credential, unmarked (the mutual TLS one sends none in a request).
      ['#/components/securitySchemes/basic', messages.sensitiveScheme('basic')],
      // An echo that names no sibling.
      ['#/components/schemas/Card/properties/fieldValue', messages.sensitiveFrom],
    ],
  },
  { rule: 'paykit/sensitive-marked', fixture: 'sensitive-complies.yaml', config: pluginRules, expected: [] },
  {
    rule: 'rule/operation-id-verb-first-camel-case',
    fixture: 'operation-id-violates.yaml',
    config: repoConfig,
    expected: [
      ['#/paths/~1noun-first/get/operationId', messages.operationId],
      ['#/paths/~1not-camel-case/get/operationId', messages.operationId],
      ['#/paths/~1verb-alone/get/operationId', messages.operationId],
    ],
  },
  { rule: 'rule/operation-id-verb-first-camel-case', fixture: 'operation-id-complies.yaml', config: repoConfig, expected: [] },
];

describe('house lint rules', () => {
  // Each case starts the Redocly CLI, a process of its own (about a second on an idle 2-core machine).
  it.each(cases)('$rule on $fixture', { timeout: 30_000 }, async ({ rule, fixture, config, expected }) => {
    const report = await lint(join(fixturesDir, fixture), config);
    const reported = report.problems
      .filter((p) => p.ruleId === rule)
      .map((p): [string, string] => [p.location[0]?.pointer ?? '', p.message]);
    expect(reported.sort()).toEqual([...expected].sort());
    for (const problem of report.problems.filter((p) => p.ruleId === rule)) expect(problem.severity).toBe('error');
  });
});
