// The import graph check on a small hand-made workspace: clean as made, and each kind of import against the declared
// direction, planted once, is found (and only it). That the repository itself is clean is `pnpm hygiene`'s run.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importGraphProblems } from '../src/import-graph.js';

const manifest = (name: string, fields: Record<string, unknown> = {}) => JSON.stringify({ name, ...fields });

/** A client, a mock over it, a proxy over the client, and a private tool: every import here runs downward. */
const workspace: Record<string, string> = {
  'pnpm-workspace.yaml': 'packages:\n  - packages/*\n  - tools/*\n',
  'packages/client/package.json': manifest('@x/client', { devDependencies: { '@x/tool': 'workspace:*' } }),
  'packages/client/src/index.ts': "export const client = 1;\n",
  'packages/client/test/client.test.ts': "import { tool } from '@x/tool';\nimport { client } from '../src/index.js';\n",
  'packages/mock/package.json': manifest('@x/mock', { keywords: ['mock'], dependencies: { '@x/client': 'workspace:*' } }),
  'packages/mock/src/index.ts': "export { client } from '@x/client';\n",
  'packages/proxy/package.json': manifest('@x/proxy', { dependencies: { '@x/client': 'workspace:*' }, devDependencies: { '@x/mock': 'workspace:*', '@x/internal': 'workspace:*' } }),
  'packages/proxy/src/index.ts': "import { client } from '@x/client/sub';\nimport { inner } from '@x/internal';\n",
  'packages/proxy/bench/run.mjs': "const { mock } = await import('@x/mock');\n",
  'packages/internal/package.json': manifest('@x/internal', { private: true }),
  'packages/internal/src/index.ts': 'export const inner = 1;\n',
  'tools/tool/package.json': manifest('@x/tool', { private: true }),
  'tools/tool/src/index.ts': "export const tool = 1;\n",
  'tools/tool/samples/merchant.ts': "import { client } from '@x/client';\n",
};

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'paykit-import-graph-'));
  for (const [file, text] of Object.entries(workspace)) await put(file, text);
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, file)), { recursive: true });
  await writeFile(join(root, file), text);
}

const found = () => importGraphProblems(root).problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);

describe('the import graph check', () => {
  it('finds nothing in a workspace that imports downward only, and counts what it read', () => {
    expect(found()).toEqual([]);
    expect(importGraphProblems(root)).toMatchObject({ packages: 5, imports: 5 });
  });

  it.each([
    ['an upward import, by name', 'packages/client/src/up.ts', "import { x } from '@x/mock';\n", {}, 'packages/client/src/up.ts:1: @x/mock: @x/client does not declare @x/mock'],
    ['an upward import, by a relative path', 'packages/client/src/up.ts', "\nexport * from '../../mock/src/index.js';\n", {}, 'packages/client/src/up.ts:2: ../../mock/src/index.js: @x/client does not declare @x/mock'],
    ['an upward dynamic import in a test', 'packages/client/test/up.test.ts', "await import('@x/proxy');\n", {}, 'packages/client/test/up.test.ts:1: @x/proxy: @x/client does not declare @x/proxy'],
    ['a require of an undeclared package', 'tools/tool/src/up.cjs', "require('@x/mock');\n", {}, 'tools/tool/src/up.cjs:1: @x/mock: @x/tool does not declare @x/mock'],
    ['shipped code importing a tool', 'packages/client/src/tooling.ts', "import { tool } from '@x/tool';\n", {}, 'packages/client/src/tooling.ts:1: @x/tool: shipped code of the published @x/client imports the tool @x/tool'],
    ['shipped code importing a devDependency', 'packages/proxy/src/mocked.ts', "import { x } from '@x/mock';\n", {}, 'packages/proxy/src/mocked.ts:1: @x/mock: shipped code of @x/proxy imports @x/mock, a devDependency only'],
    [
      'a merchant package importing a mock it depends on',
      'packages/proxy/src/mocked.ts',
      "import { x } from '@x/mock';\n",
      { 'packages/proxy/package.json': manifest('@x/proxy', { dependencies: { '@x/client': 'workspace:*', '@x/mock': 'workspace:*' }, devDependencies: { '@x/internal': 'workspace:*' } }) },
      'packages/proxy/src/mocked.ts:1: @x/mock: @x/proxy is no mock, yet its shipped code imports the mock @x/mock',
    ],
    [
      'a declaration back up (a cycle)',
      'packages/client/test/mocked.test.ts',
      "import { x } from '@x/mock';\n",
      { 'packages/client/package.json': manifest('@x/client', { devDependencies: { '@x/tool': 'workspace:*', '@x/mock': 'workspace:*' } }) },
      'packages/client/package.json:1: the declared dependencies run in a circle: @x/client -> @x/mock -> @x/client',
    ],
  ])('finds %s, and only it', async (_, file, text, more, problem) => {
    for (const [path, content] of Object.entries({ [file]: text, ...more })) await put(path, content);
    expect(found().map((line) => line.slice(0, problem.length))).toEqual([problem]);
  });
});
