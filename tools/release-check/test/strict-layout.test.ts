// Installed together, packages hide each other's undeclared dependencies in a merchant's usual layout. On small
// hand-made packages: the release test's pnpm layout (strictPnpmSettings) makes such an import fail, where pnpm's
// default layout lets it load, and a declared dependency still loads.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnvironment, describeResult, run } from '../src/commands.js';
import { strictPnpmSettings } from '../src/merchant-project.js';

let root: string;

const fixturePackages: Record<string, { dependencies?: Record<string, string>; source: string }> = {
  'fx-lib': { source: 'export const lib = 1;\n' },
  // Imports fx-lib without declaring it: loads only where fx-lib happens to be reachable.
  'fx-forgetful': { source: "import { lib } from 'fx-lib';\nexport const forgetful = lib + 1;\n" },
  'fx-careful': { dependencies: { 'fx-lib': 'file:../fx-lib' }, source: "import { lib } from 'fx-lib';\nexport const careful = lib + 2;\n" },
};

/** A project that installs the three packages (fx-lib as a dependency of its own too, as a merchant's project would). */
async function installProject(name: string, settings?: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  const dependencies = Object.fromEntries(Object.keys(fixturePackages).map((p) => [p, `file:../packages/${p}`]));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies }));
  if (settings !== undefined) await writeFile(join(dir, 'pnpm-workspace.yaml'), settings);
  const result = await run('pnpm', ['install', '--offline', '--no-frozen-lockfile', '--store-dir', join(root, 'store')], {
    cwd: dir,
    env: cleanEnvironment(),
    timeoutMs: 4_000,
  });
  expect(result.code, describeResult('pnpm install', result)).toBe(0);
  return dir;
}

/** Imports `specifier` in a Node process run in `dir`: what it exports, or the error's code and message. */
async function load(dir: string, specifier: string): Promise<string> {
  const script = `import(${JSON.stringify(specifier)}).then((m) => console.log(JSON.stringify(m)), (e) => console.log(e.code, e.message))`;
  const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: cleanEnvironment(), timeoutMs: 4_000 });
  return result.stdout.trim();
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'paykit-strict-layout-')));
  for (const [name, { dependencies, source }] of Object.entries(fixturePackages)) {
    await mkdir(join(root, 'packages', name), { recursive: true });
    await writeFile(join(root, 'packages', name, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', exports: './index.js', dependencies }));
    await writeFile(join(root, 'packages', name, 'index.js'), source);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('an undeclared dependency of a package installed beside the package it needs', () => {
  it("loads in pnpm's default layout, which hides it", async () => {
    const dir = await installProject('default-layout');
    expect(await load(dir, 'fx-forgetful')).toBe('{"forgetful":2}');
  });

  it('still loads with nothing hoisted but the virtual store inside the project, through its node_modules', async () => {
    const settings = strictPnpmSettings('unused').replace(/^virtualStoreDir: .*\n/m, '');
    expect(settings).toContain('hoist: false');
    const dir = await installProject('store-inside', settings);
    expect(await load(dir, 'fx-forgetful')).toBe('{"forgetful":2}');
  });

  it('fails in the strict layout of the release test, where a declared one loads', async () => {
    const dir = await installProject('strict-layout', strictPnpmSettings(join(root, 'strict-layout-virtual-store')));
    expect(await load(dir, 'fx-forgetful')).toMatch(/^ERR_MODULE_NOT_FOUND Cannot find package 'fx-lib' imported from .*fx-forgetful/);
    expect(await load(dir, 'fx-careful')).toBe('{"careful":3}');
  });
});
