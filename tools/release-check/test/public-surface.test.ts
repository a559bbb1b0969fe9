import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageManifest } from '../src/entry-points.js';
import {
  declaredNames,
  expectedSurfacesName,
  listProblems,
  readExpectedSurfaces,
  readmeSurface,
  surfaceOf,
  surfaceProblems,
  undeclaredValues,
  type PackageSurface,
} from '../src/public-surface.js';
import { publicPackages, repositoryRoot } from '../src/release.js';

const readme = `# @paykit/example

Intro.

## Entry points

Some words about them.

### \`@paykit/example\`

Values: \`createClient\`,
\`ExampleError\`.

Types: \`ClientOptions\`.

### \`@paykit/example/extra\`

Values: \`extra\`.

Types: none.

### \`@paykit/example/package.json\`

A file: the manifest.

## After

### \`@paykit/example/not-in-the-section\`

Values: \`ignored\`.
`;

const listed: PackageSurface = {
  '.': { values: ['ExampleError', 'createClient'], types: ['ClientOptions'] },
  './extra': { values: ['extra'], types: [] },
  './package.json': 'file',
};

describe('readmeSurface', () => {
  it('reads each entry of the section: names in backticks after Values: and Types:, a file when it has neither', () => {
    expect(readmeSurface('@paykit/example', readme)).toEqual(listed);
  });

  it('finds no list in a README without the section', () => {
    expect(readmeSurface('@paykit/example', '# @paykit/example\n\n## Usage\n')).toBeUndefined();
  });

  it('refuses an entry heading that does not name the entry point in backticks', () => {
    expect(() => readmeSurface('@paykit/example', '## Entry points\n\n### The main entry\n\nValues: `a`.\n')).toThrow(/does not name an entry point/);
  });
});

describe('surfaceProblems: the packed package against the list, each line saying what to do', () => {
  const where = expectedSurfacesName;
  it.each<{ name: string; actual: PackageSurface; expected: RegExp[] }>([
    { name: 'the same surface', actual: listed, expected: [] },
    {
      name: 'a value nobody listed',
      actual: { ...listed, '.': { values: ['ExampleError', 'createClient', 'internalTable'], types: ['ClientOptions'] } },
      expected: [/^@paykit\/example exports the value internalTable, which .* does not list: if it is meant for merchants, add it to the package README's "## Entry points" and to tools\/release-check\/public-surface.json .*; if not, do not export it$/],
    },
    {
      name: 'a listed type that is gone',
      actual: { ...listed, '.': { values: ['ExampleError', 'createClient'], types: [] } },
      expected: [/^@paykit\/example does not export the type ClientOptions, which .* lists: a merchant may import it: removing it is a breaking change/],
    },
    {
      name: 'an entry point nobody listed',
      actual: { ...listed, './rules': { values: ['rules'], types: [] } },
      expected: [/^@paykit\/example\/rules is an entry point .* does not list: if it is meant for merchants, add it/],
    },
    {
      name: 'a listed entry point that is gone',
      actual: { '.': listed['.']!, './package.json': 'file' },
      expected: [/^@paykit\/example\/extra is listed in .* but the package has no such entry point: a merchant may import it/],
    },
    {
      name: 'a module where a file is listed',
      actual: { ...listed, './package.json': { values: ['name'], types: [] } },
      expected: [/^@paykit\/example\/package.json is a module in the package, a file in /],
    },
  ])('$name', ({ actual, expected }) => {
    const problems = surfaceProblems('@paykit/example', actual, listed, where);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(problems[i]).toMatch(pattern));
  });

  it('names the missing list when a package has none', () => {
    expect(surfaceProblems('@paykit/new', listed, undefined, where)).toEqual([expect.stringMatching(/^@paykit\/new: .* has no list of its entry points; add one/)]);
  });
});

describe('listProblems: the README and public-surface.json say the same', () => {
  it.each<{ name: string; readme: PackageSurface | undefined; expected: RegExp[] }>([
    { name: 'the same lists', readme: listed, expected: [] },
    { name: 'no section', readme: undefined, expected: [/README's "## Entry points" section is missing: add it/] },
    {
      name: 'a type only the README lists',
      readme: { ...listed, './extra': { values: ['extra'], types: ['Extra'] } },
      expected: [/^@paykit\/example\/extra type Extra: the @paykit\/example README's "## Entry points" lists it and tools\/release-check\/public-surface.json does not: write the same in both$/],
    },
    {
      name: 'an entry only public-surface.json lists',
      readme: { '.': listed['.']!, './package.json': 'file' },
      expected: [/^entry point @paykit\/example\/extra: tools\/release-check\/public-surface.json lists it and .* does not/],
    },
  ])('$name', ({ readme: fromReadme, expected }) => {
    const problems = listProblems('@paykit/example', fromReadme, listed);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(problems[i]).toMatch(pattern));
  });
});

describe('declaredNames and surfaceOf: declared names that are not run-time names are types', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-public-surface-'));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: '@paykit/example', type: 'module' }));
    await writeFile(join(dir, 'a.d.ts'), 'export declare class ExampleError extends Error {}\nexport interface ClientOptions { key: string }\n');
    await writeFile(join(dir, 'index.d.ts'), "export * from './a.js';\nexport declare function createClient(): void;\nexport type Alias = string;\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('follows export * and lists every name, sorted; the run-time names split values from types', () => {
    const file = join(dir, 'index.d.ts');
    const declared = declaredNames([file]).get(file)!;
    expect(declared).toEqual(['Alias', 'ClientOptions', 'ExampleError', 'createClient']);
    const manifest: PackageManifest = { name: '@paykit/example', version: '0.0.0', exports: { '.': { types: './index.d.ts', default: './index.js' }, './package.json': './package.json' } };
    const runtime = new Map([['.', ['createClient', 'ExampleError']]]);
    expect(surfaceOf(manifest, runtime, new Map([['.', declared]]))).toEqual({
      '.': { values: ['ExampleError', 'createClient'], types: ['Alias', 'ClientOptions'] },
      './package.json': 'file',
    });
    expect(undeclaredValues(new Map([['.', ['createClient', 'hidden']]]), new Map([['.', declared]]))).toEqual(['.: hidden']);
  });
});

// The release test compares the packed packages with both lists; this catches a list out of step without a release.
describe.each(publicPackages(repositoryRoot).map((pkg) => [pkg.name, pkg] as const))('%s in the workspace', (name, pkg) => {
  const expected = readExpectedSurfaces()[name];

  it(`lists the same entry points and names in its README as ${expectedSurfacesName}`, () => {
    expect(listProblems(name, readmeSurface(name, readFileSync(join(repositoryRoot, pkg.directory, 'README.md'), 'utf8')), expected)).toEqual([]);
  });

  it(`has the entry points (package.json exports) that ${expectedSurfacesName} lists`, () => {
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, pkg.directory, 'package.json'), 'utf8')) as PackageManifest;
    expect(Object.keys(manifest.exports ?? {}).sort(), `add the entry to its README's "## Entry points" and to ${expectedSurfacesName}, or do not export it`).toEqual(
      Object.keys(expected ?? {}).sort(),
    );
  });
});
