import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishableKeyOperations, secretKeyOperations } from '../src/generated/operations.js';
import { measureBundle } from './support/bundle-size.js';

const entry = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

// Budgets in bytes of minified + gzip -9 output (1 kB = 1000 bytes), types excluded. The full entry is back at its
// 15,000 B since the raw client (openapi-fetch) moved to `@paykit/payments/raw` (16,151 -> 13,431 B). The publishable
// one was raised from 6,000 after issue 31's fixes (recovery of lost answers, the sensitive marks): 6,407 B measured
// then, 6,333 B since; issue 31 stays open until 6,000 holds again.
describe('bundle size budgets', () => {
  it.each([
    { name: 'publishable', path: 'publishable.ts', platform: 'browser', budget: 6_500 },
    { name: 'full', path: 'index.ts', platform: 'node', budget: 15_000 },
  ] as const)('the $name entry fits in $budget bytes', async ({ path, platform, budget }) => {
    const measured = await measureBundle(entry(path), platform);
    console.log(`${path}: ${measured.minified} B minified, ${measured.gzipped} B gzipped (budget ${budget})`);
    expect(measured.gzipped).toBeLessThanOrEqual(budget);
  });
});

describe('the main entry leaves the raw client to its own entry point', () => {
  it('carries no openapi-fetch, which `@paykit/payments/raw` brings', async () => {
    const withOpenapiFetch = (inputs: string[]) => inputs.some((path) => path.includes('openapi-fetch'));
    expect(withOpenapiFetch(Object.keys((await measureBundle(entry('index.ts'), 'node')).metafile.inputs))).toBe(false);
    // The check can fail: the raw entry does carry it.
    expect(withOpenapiFetch(Object.keys((await measureBundle(entry('raw.ts'), 'node')).metafile.inputs))).toBe(true);
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
