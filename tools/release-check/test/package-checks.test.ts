// The checks of an installed package on small hand-made packages: each must find the flaw it is there for, and
// nothing in a clean package (the release test only shows them passing on packages that are fine).
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPoints, type PackageManifest } from '../src/entry-points.js';
import {
  buildPathProblems,
  documentProblems,
  localDependencyProblems,
  manifestProblems,
  missingManifestFileProblems,
  packageFiles,
  sourceMapProblems,
  symlinkProblems,
  undeclaredImportProblems,
  unresolvedImportProblems,
} from '../src/package-checks.js';

const mit = 'MIT License\n\nCopyright (c) 2026 x\n\nPermission is hereby granted, free of charge, to any person...\n';
const cleanManifest: PackageManifest = {
  name: '@paykit/example',
  version: '1.0.0-snap',
  license: 'MIT',
  engines: { node: '>=20.19.0' },
  repository: { type: 'git', url: 'git+https://example.invalid/x.git', directory: 'packages/example' },
  keywords: ['example'],
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
  bin: { example: './dist/cli.js' },
  dependencies: { other: '1.2.3' },
};
const cleanFiles: Record<string, string> = {
  'README.md': '# @paykit/example\n',
  LICENSE: mit,
  'CHANGELOG.md': '# @paykit/example\n\n## 1.0.0-snap\n\n- Change.\n',
  'dist/index.js': "export * from './lib.js';\nexport const load = () => import('./lazy.js');\n",
  'dist/index.d.ts': "export * from './lib.js';\n",
  'dist/lib.js': "import { readFile } from 'node:fs/promises';\nimport { join } from 'path';\nimport { o } from 'other/sub';\nexport const a = 1;\n",
  'dist/lib.d.ts': 'export declare const a = 1;\n',
  'dist/lazy.js': 'export {};\n',
  'dist/cli.js': "#!/usr/bin/env node\nimport './lib.js';\n",
  'dist/lib.js.map': JSON.stringify({ version: 3, sources: ['lib.js'], mappings: '' }),
  // A bundle of third-party code (no declarations of its own): its optional requires are not the package's to declare.
  'dist/vendor/bundle.cjs': "try { require('fsevents'); } catch {}\n",
};

let root: string;
let count = 0;

async function makePackage(files: Record<string, string>, manifest: PackageManifest): Promise<string> {
  const dir = join(root, `package-${count++}`);
  for (const [path, content] of Object.entries({ ...files, 'package.json': JSON.stringify(manifest) })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'paykit-package-checks-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every check on one package, as the release test runs them. */
async function allProblems(dir: string, manifest: PackageManifest, buildPaths: string[] = []): Promise<string[]> {
  const files = await packageFiles(dir);
  return [
    ...manifestProblems(manifest, 'packages/example'),
    ...(await documentProblems(dir, '1.0.0-snap')),
    ...localDependencyProblems(manifest),
    ...missingManifestFileProblems(manifest, files),
    ...(await unresolvedImportProblems(dir, files)),
    ...(await sourceMapProblems(dir, files)),
    ...(await buildPathProblems(dir, files, buildPaths)),
    ...(await undeclaredImportProblems(dir, files, manifest)),
  ];
}

describe('checks of an installed package', () => {
  it('find nothing in a complete package', async () => {
    const dir = await makePackage(cleanFiles, cleanManifest);
    expect(await allProblems(dir, cleanManifest, ['/build/root'])).toEqual([]);
  });

  const { keywords: _keywords, ...withoutKeywords } = cleanManifest;
  const { LICENSE: _licence, ...withoutLicence } = cleanFiles;
  it.each([
    ['a licence other than MIT', { manifest: { ...cleanManifest, license: 'ISC' } }, 'license is "ISC", not "MIT"'],
    ['no keywords', { manifest: withoutKeywords }, 'no keywords'],
    [
      'a repository without its folder',
      { manifest: { ...cleanManifest, repository: { type: 'git', url: 'x' } } },
      'repository.directory is undefined, not "packages/example"',
    ],
    ['no LICENSE file', { files: withoutLicence }, 'no LICENSE'],
    ['a changelog without this version', { files: { ...cleanFiles, 'CHANGELOG.md': '# x\n\n## 0.9.0\n' } }, 'CHANGELOG.md has no section for 1.0.0-snap'],
    [
      'a required peer on a types package',
      { manifest: { ...cleanManifest, peerDependencies: { '@types/node': '>=20', typescript: '>=5.4' } } },
      'peer dependency @types/node is not optional (peerDependenciesMeta.@types/node.optional)',
    ],
    [
      'a workspace: dependency',
      { manifest: { ...cleanManifest, dependencies: { other: '1.2.3', '@paykit/other': 'workspace:*' } } },
      'dependencies.@paykit/other is "workspace:*"',
    ],
    [
      'an exported file left out',
      { manifest: { ...cleanManifest, exports: { ...cleanManifest.exports, './extra': './dist/extra.js' } } },
      'package.json names dist/extra.js, which is not shipped',
    ],
    [
      'a relative import of a file left out',
      { files: { ...cleanFiles, 'dist/index.d.ts': "export * from './gone.js';\n" } },
      'dist/index.d.ts imports ./gone.js, which is not shipped',
    ],
    [
      'source maps into an unshipped src/',
      { files: { ...cleanFiles, 'dist/lib.js.map': JSON.stringify({ version: 3, sources: ['../src/lib.ts'], mappings: '' }) } },
      'source maps point at src/, which is not shipped',
    ],
    [
      'an import of a package it does not declare',
      { files: { ...cleanFiles, 'dist/lib.js': "export { x } from 'undeclared-lib/sub';\n" } },
      'dist/lib.js imports undeclared-lib/sub, but undeclared-lib is not in its dependencies',
    ],
    [
      'a lazy import of a package it does not declare',
      { files: { ...cleanFiles, 'dist/index.js': "export const load = () => import('@other/lazy');\n" } },
      'dist/index.js imports @other/lazy, but @other/lazy is not in its dependencies',
    ],
    [
      'a type import of a package it does not declare',
      { files: { ...cleanFiles, 'dist/index.d.ts': "import type { Pool } from 'pg';\nexport declare const pool: Pool;\n" } },
      'dist/index.d.ts imports pg, but pg is not in its dependencies',
    ],
    [
      'the build machine path in a shipped file',
      { files: { ...cleanFiles, 'dist/lib.js': "export const spec = '/build/root/specs/a.json';\n" } },
      'dist/lib.js contains the build path /build/root',
    ],
  ])('find %s', async (_, change: { manifest?: PackageManifest; files?: Record<string, string> }, problem) => {
    const manifest = change.manifest ?? cleanManifest;
    const dir = await makePackage(change.files ?? cleanFiles, manifest);
    expect(await allProblems(dir, manifest, ['/build/root'])).toEqual([problem]);
  });

  it('find a symbolic link from node_modules into a forbidden folder, and only that one', async () => {
    const project = join(root, 'project');
    const forbidden = join(root, 'workspace');
    await mkdir(join(project, 'node_modules', '@paykit'), { recursive: true });
    await mkdir(join(forbidden, 'packages', 'example'), { recursive: true });
    await mkdir(join(project, 'node_modules', '.store', 'other'), { recursive: true });
    await symlink(join(forbidden, 'packages', 'example'), join(project, 'node_modules', '@paykit', 'example'));
    await symlink(join(project, 'node_modules', '.store', 'other'), join(project, 'node_modules', 'other'));
    expect(await symlinkProblems(project, [forbidden])).toEqual([
      `node_modules/@paykit/example -> ${join(forbidden, 'packages', 'example')}`,
    ]);
  });

  it('find such a link in a folder outside node_modules too (pnpm\'s virtual store, kept outside the project)', async () => {
    const project = join(root, 'project-with-store');
    const store = join(root, 'virtual-store');
    const forbidden = join(root, 'workspace-2');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await mkdir(join(store, 'x@1.0.0', 'node_modules'), { recursive: true });
    await mkdir(forbidden, { recursive: true });
    await symlink(forbidden, join(store, 'x@1.0.0', 'node_modules', 'dep'));
    expect(await symlinkProblems(project, [forbidden])).toEqual([]);
    expect(await symlinkProblems(project, [forbidden], [store])).toEqual([`../virtual-store/x@1.0.0/node_modules/dep -> ${forbidden}`]);
  });

  it('accept a type import whose types come from a declared @types package', async () => {
    const manifest = { ...cleanManifest, peerDependencies: { '@types/pg': '*', '@types/scope__name': '*' } };
    const files = { ...cleanFiles, 'dist/index.d.ts': "import type { Pool } from 'pg';\nimport type { N } from '@scope/name';\nexport declare const p: Pool;\n" };
    const dir = await makePackage(files, manifest);
    expect(await undeclaredImportProblems(dir, await packageFiles(dir), manifest)).toEqual([]);
  });

  it('accept a peer on a types package marked optional', () => {
    const manifest = { ...cleanManifest, peerDependencies: { '@types/node': '>=20' }, peerDependenciesMeta: { '@types/node': { optional: true } } };
    expect(manifestProblems(manifest, 'packages/example')).toEqual([]);
  });

  it("accept the package's own subpath imports that its package.json declares, and only those", async () => {
    const manifest = { ...cleanManifest, imports: { '#platform': { browser: './dist/web.js', default: './dist/node.js' } } };
    const files = { ...cleanFiles, 'dist/index.js': "import { a } from '#platform';\nimport { b } from '#other';\nexport const c = a + b;\n" };
    const dir = await makePackage(files, manifest);
    expect(await undeclaredImportProblems(dir, await packageFiles(dir), manifest)).toEqual([
      'dist/index.js imports #other, but #other is not in its dependencies',
    ]);
  });
});

describe('entry points', () => {
  it('name every exports key as a merchant imports it, with its kind and sample', () => {
    expect(
      entryPoints({
        name: '@paykit/x',
        version: '1.0.0',
        exports: {
          '.': { types: './dist/index.d.ts', default: './dist/index.js' },
          './webhooks': { types: './dist/webhooks/index.d.ts', default: './dist/webhooks/index.js' },
          './spec/openapi.yaml': './spec/openapi.yaml',
          './package.json': './package.json',
        },
      }),
    ).toEqual([
      { key: '.', specifier: '@paykit/x', kind: 'module', sampleName: 'index' },
      { key: './webhooks', specifier: '@paykit/x/webhooks', kind: 'module', sampleName: 'webhooks' },
      { key: './spec/openapi.yaml', specifier: '@paykit/x/spec/openapi.yaml', kind: 'file', sampleName: 'spec-openapi.yaml' },
      { key: './package.json', specifier: '@paykit/x/package.json', kind: 'json', sampleName: 'package.json' },
    ]);
  });
});
