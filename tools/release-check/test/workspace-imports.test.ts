// Each workspace package imports the others only through the entry points they export: on a small hand-made
// workspace the check finds each kind of reach into another package, and in this repository it finds none.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../src/release.js';
import { crossPackageImportProblems } from '../src/workspace-imports.js';

let root: string;
const files: Record<string, string> = {
  'pnpm-workspace.yaml': 'packages:\n  - packages/*\n  - docs\n',
  'packages/lib/package.json': JSON.stringify({ name: '@x/lib', exports: { '.': './dist/index.js', './core': './dist/core.js', './schemas/*': './dist/schemas/*.json' } }),
  'packages/lib/src/index.ts': "export * from './core.js';\n",
  'packages/lib/src/core.ts': 'export const a = 1;\n',
  'packages/tool/package.json': JSON.stringify({ name: '@x/tool', bin: { tool: './bin/tool.js' } }),
  'packages/tool/src/cli.ts': "export const b = 2;\n",
  'docs/package.json': JSON.stringify({ name: '@x/docs' }),
  // A package whose build inlines @x/lib's unexported internal entry from source (tools/bundle-internal).
  'packages/app/package.json': JSON.stringify({ name: '@x/app', scripts: { build: 'tsc && paykit-bundle-internal src/index.ts --from-source @x/lib/internal=../lib/src/internal.ts' } }),
  'packages/app/src/index.ts': "export { internal } from '@x/lib/internal';\n",
  'packages/lib/src/internal.ts': 'export const internal = 3;\n',
};

async function check(name: string, source: string): Promise<string[]> {
  const path = join(root, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, source);
  try {
    return crossPackageImportProblems(root);
  } finally {
    await rm(path);
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'paykit-workspace-imports-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: root });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('crossPackageImportProblems', () => {
  it('finds nothing in a workspace whose packages import each other by exported entry points', () => {
    expect(crossPackageImportProblems(root)).toEqual([]);
  });

  it.each([
    ['a relative path into another package', 'docs/site.ts', "import { a } from '../packages/lib/src/core.js';", "docs/site.ts: ../packages/lib/src/core.js (a path into @x/lib; import it by name through an entry point it exports)"],
    ['a dynamic import of a relative path', 'docs/site.ts', "const m = await import('../packages/tool/src/cli.js');", "docs/site.ts: ../packages/tool/src/cli.js (a path into @x/tool; import it by name through an entry point it exports)"],
    ['a re-export of a relative path', 'packages/tool/src/x.ts', "export { a } from '../../lib/src/core.js';", "packages/tool/src/x.ts: ../../lib/src/core.js (a path into @x/lib; import it by name through an entry point it exports)"],
    ['a subpath the package does not export', 'docs/site.ts', "import { a } from '@x/lib/src/core.js';", 'docs/site.ts: @x/lib/src/core.js (@x/lib exports no ./src/core.js)'],
    ['a built file by path', 'docs/site.mjs', "import { a } from '@x/lib/dist/core.js';", 'docs/site.mjs: @x/lib/dist/core.js (@x/lib exports no ./dist/core.js)'],
    ['any subpath of a package without exports', 'docs/site.ts', "const c = require('@x/tool/src/cli.js');", 'docs/site.ts: @x/tool/src/cli.js (@x/tool exports no ./src/cli.js)'],
    ['an internal entry inlined from source by another package than the importer', 'docs/site.ts', "import { internal } from '@x/lib/internal';", 'docs/site.ts: @x/lib/internal (@x/lib exports no ./internal)'],
    ['another unexported subpath in the package that inlines one', 'packages/app/src/x.ts', "import { a } from '@x/lib/src/core.js';", 'packages/app/src/x.ts: @x/lib/src/core.js (@x/lib exports no ./src/core.js)'],
  ])('finds %s', async (_, file, source, problem) => {
    expect(await check(file, source)).toEqual([problem]);
  });

  it.each([
    ['the main entry', "import { a } from '@x/lib';"],
    ['an exported subpath', "import { a } from '@x/lib/core';"],
    ['a subpath matching an exported pattern', "import s from '@x/lib/schemas/payment.json' with { type: 'json' };"],
    ['a relative path inside its own package', "import { b } from './other.js';"],
    ['a package outside the workspace', "import { readFile } from 'node:fs/promises';\nimport x from 'yaml/dist/index.js';"],
  ])('accepts %s', async (_, source) => {
    expect(await check('docs/site.ts', source)).toEqual([]);
  });
});

describe('this repository', () => {
  it('imports other workspace packages only through the entry points they export', () => {
    expect(crossPackageImportProblems(repositoryRoot)).toEqual([]);
  });
});
