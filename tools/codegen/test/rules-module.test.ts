// The rules module's `eachValue` form (the payments client's): each value a constant of its own, numbers and booleans
// before any list, so that a bundler inlines them (packages/payments/test/bundle-size.test.ts checks that it does);
// the rule objects keep their shape and values.
import { describe, expect, it } from 'vitest';
import { rulesModule } from '../src/generators/rules-module.js';

const rules = {
  retry: { description: 'Resend on these.', statuses: [429, 503], networkErrors: true, waitMs: 20000 },
  lifetime: { description: 'How long.', lifetimeMs: 600000 },
};

/** The module's exports, evaluated: its TypeScript is JavaScript once `as const` is taken out. */
async function evaluate(module: string): Promise<Record<string, unknown>> {
  const url = `data:text/javascript,${encodeURIComponent(module.replaceAll(' as const', ''))}`;
  return (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
}

describe('rulesModule', () => {
  it('by default writes each rule as one object', () => {
    const module = rulesModule('spec.yaml', rules);
    expect(module).toContain('export const retry = { statuses: [429, 503], networkErrors: true, waitMs: 20000 } as const;');
    expect(module).not.toContain('retryWaitMs');
  });

  it('with eachValue, writes the numbers and booleans first, then the lists, then the rules made of them', async () => {
    const module = rulesModule('spec.yaml', rules, { eachValue: true });
    const at = (text: string) => module.indexOf(text);
    for (const text of ['export const retryNetworkErrors = true;', 'export const retryWaitMs = 20000;', 'export const lifetimeLifetimeMs = 600000;']) {
      expect(at(text), text).toBeGreaterThan(-1);
      expect(at(text), text).toBeLessThan(at('export const retryStatuses = [429, 503] as const;'));
    }
    expect(module).toContain('export const retry = { statuses: retryStatuses, networkErrors: retryNetworkErrors, waitMs: retryWaitMs } as const;');
    // The same values under the same shape as the default form.
    const [split, whole] = await Promise.all([evaluate(module), evaluate(rulesModule('spec.yaml', rules))]);
    expect(split.rules).toEqual({ retry: { statuses: [429, 503], networkErrors: true, waitMs: 20000 }, lifetime: { lifetimeMs: 600000 } });
    expect(split.rules).toEqual(whole.rules);
    expect(split.retryWaitMs).toBe(20000);
  });

  it('refuses a value whose constant would take the name of a rule', () => {
    expect(() => rulesModule('spec.yaml', { retry: { description: 'x', statuses: [1] }, retryStatuses: { description: 'y', count: 1 } }, { eachValue: true })).toThrow(
      /retry\.statuses would be exported as retryStatuses, the name of a rule/,
    );
  });
});
