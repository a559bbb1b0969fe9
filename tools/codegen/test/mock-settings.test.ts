// Each contract's mock settings (base path, default ports) are generated into one package, the one that serves
// them; the others import them through that package's entry point instead of getting a second copy.
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packagesDir = fileURLToPath(new URL('../../../packages/', import.meta.url));

/** `packages/<package>/src/generated/<contract>/mock-settings.ts`, as [contract, package] pairs. */
async function generatedMockSettings(): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for (const pkg of await readdir(packagesDir)) {
    const generated = `${packagesDir}${pkg}/src/generated`;
    const entries = await readdir(generated, { recursive: true }).catch(() => [] as string[]);
    for (const entry of entries) {
      const match = /^([^/]+)\/mock-settings\.ts$/.exec(entry);
      if (match) found.push([match[1]!, pkg]);
    }
  }
  return found;
}

describe('mock settings', () => {
  it('are generated once per contract, into one package', async () => {
    const byContract = new Map<string, string[]>();
    for (const [contract, pkg] of await generatedMockSettings()) byContract.set(contract, [...(byContract.get(contract) ?? []), pkg]);
    expect(byContract.size).toBeGreaterThan(0);
    expect([...byContract].filter(([, owners]) => owners.length > 1)).toEqual([]);
  });
});
