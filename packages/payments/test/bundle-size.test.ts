import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishableKeyOperations, secretKeyOperations } from '../src/generated/operations.js';
import { measureBundle } from './support/bundle-size.js';

const entry = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

// Budgets in bytes of minified + gzip -9 output (1 kB = 1000 bytes), types excluded. The full entry is back at its
// 15,000 B since the raw client (openapi-fetch) moved to `@paykit/payments/raw` (16,151 -> 13,431 B). The publishable
// one is back at its 6,000 B (issue 31's fixes had taken it to 6,407 B): 5,898 B as a browser bundles it, with
// src/platform/web.ts (package.json's `imports`) and the rules' values inlined (tools/codegen declares them first).
describe('bundle size budgets', () => {
  it.each([
    { name: 'publishable', path: 'publishable.ts', platform: 'browser', budget: 6_000 },
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

  it("leaves out Node's parts (src/platform/node.ts), which the Node build of the same entry carries", async () => {
    const nodeOnly = ['nodejs.util.inspect.custom', 'the proxy refused it', 'CONNREFUSED', 'WeakMap', 'unref'];
    const [web, node] = await Promise.all([measureBundle(entry('publishable.ts'), 'browser'), measureBundle(entry('publishable.ts'), 'node')]);
    for (const text of nodeOnly) expect([web.code.includes(text), node.code.includes(text)], text).toEqual([false, true]);
    // esbuild drops what web.ts's `undefined` and `false` guard only when it inlines them: no guard is left behind.
    expect(web.code).not.toMatch(/refusedByProxy|sentNothing|takesDispatcher|inspectKey/);
  });

  it("carries the rules' values inlined, not the generated rule objects (their values are declared first)", async () => {
    const { code } = await measureBundle(entry('publishable.ts'), 'browser');
    // The values are there (the idempotency key's lifetime, in the unknown-outcome advice), as literals...
    expect(code).toContain('792e5');
    // ...and no rule object: the retry rule's field that no client code reads, the lifetime's name, the idempotency
    // key rule's fields (src/generated/operations.ts's idempotencyKeyRule, whose values come first there).
    expect(code).not.toMatch(/sameIdempotencyKey|networkErrors|lifetimeMs|maxLength|minLength/);
    expect(code).toContain('Idempotency-Key');
  });

  it('would notice a Node built-in (the check can fail)', async () => {
    const measured = await measureBundle(entry('webhooks/index.ts'), 'browser');
    expect(measured.nodeModulesImported).toContain('node:crypto');
  });
});
