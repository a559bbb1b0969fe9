import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishableKeyOperations, secretKeyOperations } from '../src/generated/operations.js';
import { measureBundle } from './support/bundle-size.js';

const entry = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

// Budgets in bytes of minified + gzip -9 output (1 kB = 1000 bytes), types excluded. Raised from 6,000 and 15,000
// after issue 31's fixes (recovery of lost answers, the answer checks, `raw`'s checks, the contract's sensitive
// marks): 6,407 and 16,151 B measured once ~550 B had been found; issue 31 stays open until the old budgets hold
// again or are given up on purpose (the options measured are in its note).
describe('bundle size budgets', () => {
  it.each([
    { name: 'publishable', path: 'publishable.ts', platform: 'browser', budget: 6_500 },
    { name: 'full', path: 'index.ts', platform: 'node', budget: 16_400 },
  ] as const)('the $name entry fits in $budget bytes', async ({ path, platform, budget }) => {
    const measured = await measureBundle(entry(path), platform);
    console.log(`${path}: ${measured.minified} B minified, ${measured.gzipped} B gzipped (budget ${budget})`);
    expect(measured.gzipped).toBeLessThanOrEqual(budget);
  });
});

describe('the publishable entry is browser-only material', () => {
  it('bundles for the browser without any Node built-in and without the secret operations', async () => {
    const measured = await measureBundle(entry('publishable.ts'), 'browser');
    expect(measured.nodeModulesImported).toEqual([]);
    for (const operationId of Object.keys(secretKeyOperations)) expect(measured.code).not.toContain(operationId);
    for (const operationId of Object.keys(publishableKeyOperations)) expect(measured.code).toContain(operationId);
    const inputs = Object.keys(measured.metafile.inputs);
    expect(inputs.some((path) => path.includes('openapi-fetch'))).toBe(false);
    expect(inputs.some((path) => path.includes('webhooks') || path.includes('validation'))).toBe(false);
  });

  it('would notice a Node built-in (the check can fail)', async () => {
    const measured = await measureBundle(entry('webhooks/index.ts'), 'browser');
    expect(measured.nodeModulesImported).toContain('node:crypto');
  });
});
