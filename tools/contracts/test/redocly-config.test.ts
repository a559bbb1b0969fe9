// redocly.yaml stays hand-written (its comments explain exceptions), so this test holds it to the registry: its
// `apis` are exactly the OpenAPI contracts, at their roots, each requiring the x-paykit-rules its readers know.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { controlContracts, openApiContracts, type ControlContract, type OpenApiContract } from '../src/registry.js';
import { fromRoot } from '../src/repo.js';

const rulesLint = 'paykit/client-rules-present';

/** What differs between a redocly configuration and the registry, one line per difference. */
function redoclyConfigProblems(config: unknown, contracts: readonly OpenApiContract[], controls: readonly ControlContract[] = controlContracts): string[] {
  const apis = ((config as { apis?: unknown })?.apis ?? {}) as Record<string, { root?: unknown; rules?: Record<string, unknown> }>;
  const problems: string[] = [];
  for (const name of Object.keys(apis)) {
    if (![...contracts, ...controls].some((c) => c.api === name)) problems.push(`${name} is not an OpenAPI contract of the registry`);
  }
  for (const control of controls) {
    const api = apis[control.api];
    if (!api) problems.push(`${control.api} is missing`);
    else if (api.root !== control.root) problems.push(`${control.api}: root is ${String(api.root)}, the registry says ${control.root}`);
  }
  for (const contract of contracts) {
    const api = apis[contract.api];
    if (!api) {
      problems.push(`${contract.api} is missing`);
      continue;
    }
    if (api.root !== contract.root) problems.push(`${contract.api}: root is ${String(api.root)}, the registry says ${contract.root}`);
    const required = (api.rules?.[rulesLint] as { required?: unknown } | undefined)?.required;
    const sorted = (list: readonly string[]) => [...list].sort().join(', ');
    if (!Array.isArray(required)) problems.push(`${contract.api}: ${rulesLint}.required is missing`);
    else if (sorted(required) !== sorted(contract.requiredRules)) {
      problems.push(`${contract.api}: ${rulesLint}.required is [${sorted(required)}], the registry says [${sorted(contract.requiredRules)}]`);
    }
  }
  return problems;
}

const realConfig = parse(await readFile(fromRoot('redocly.yaml'), 'utf8')) as { apis: Record<string, Record<string, any>> };
const [first, second] = openApiContracts as [OpenApiContract, OpenApiContract];

/** The real configuration with one change. */
function changed(edit: (apis: Record<string, Record<string, any>>) => void): unknown {
  const config = structuredClone(realConfig);
  edit(config.apis);
  return config;
}

describe('redocly.yaml against the registry', () => {
  it('lists exactly the OpenAPI contracts, at their roots, with the rules their readers require', () => {
    expect(redoclyConfigProblems(realConfig, openApiContracts)).toEqual([]);
  });

  it.each([
    { change: 'an API the registry lacks', edit: (apis: any) => (apis['extra@v1'] = { root: 'specs/extra.yaml' }), problem: 'extra@v1 is not an OpenAPI contract of the registry' },
    { change: 'a contract left out', edit: (apis: any) => delete apis[second.api], problem: `${second.api} is missing` },
    { change: 'a renamed API', edit: (apis: any) => ((apis[`${first.name}@v2`] = apis[first.api]), delete apis[first.api]), problem: `${first.api} is missing` },
    { change: 'another root', edit: (apis: any) => (apis[first.api].root = 'specs/other.yaml'), problem: `${first.api}: root is specs/other.yaml` },
    { change: 'a required rule dropped', edit: (apis: any) => apis[first.api].rules[rulesLint].required.pop(), problem: `${first.api}: ${rulesLint}.required is [` },
    { change: 'a required rule the readers do not know', edit: (apis: any) => apis[second.api].rules[rulesLint].required.push('retyr'), problem: `${second.api}: ${rulesLint}.required is [` },
    { change: 'a control interface left out', edit: (apis: any) => delete apis[controlContracts[0]!.api], problem: `${controlContracts[0]!.api} is missing` },
    { change: 'a control interface at another root', edit: (apis: any) => (apis[controlContracts[0]!.api].root = 'specs/x.yaml'), problem: `${controlContracts[0]!.api}: root is specs/x.yaml` },
    { change: 'the rule not configured', edit: (apis: any) => delete apis[second.api].rules[rulesLint], problem: `${second.api}: ${rulesLint}.required is missing` },
  ])('fails on $change', ({ edit, problem }) => {
    const problems = redoclyConfigProblems(changed(edit), openApiContracts);
    expect(problems.join('\n')).toContain(problem);
  });
});
