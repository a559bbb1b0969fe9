import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findDrift, writeGenerated, type GeneratedFolders } from '../src/generated-files.js';

const generatedDirs = ['src/generated', 'spec'];
const files = [
  { path: 'src/generated/openapi.ts', content: '// generated\nexport {};\n' },
  { path: 'spec/openapi.yaml', content: '# generated\nopenapi: 3.1.0\n' },
];

let packageDir: string;
let folders: GeneratedFolders;
beforeEach(async () => {
  packageDir = await mkdtemp(join(tmpdir(), 'paykit-generated-'));
  folders = { packageDir, generatedDirs, files };
  for (const file of files) {
    await mkdir(join(packageDir, file.path, '..'), { recursive: true });
    await writeFile(join(packageDir, file.path), file.content);
  }
});
afterEach(() => rm(packageDir, { recursive: true, force: true }));

const display = (path: string) => relative(packageDir, path);

const changes = [
  {
    change: 'a hand edit',
    apply: (dir: string) => writeFile(join(dir, 'src/generated/openapi.ts'), '// edited\n'),
    drift: 'differs: src/generated/openapi.ts',
    summary: { written: 1, unchanged: 1, removed: 0 },
  },
  {
    change: 'a deleted file',
    apply: (dir: string) => rm(join(dir, 'spec/openapi.yaml')),
    drift: 'missing: spec/openapi.yaml',
    summary: { written: 1, unchanged: 1, removed: 0 },
  },
  {
    change: 'a stray file in a generated folder',
    apply: (dir: string) => writeFile(join(dir, 'src/generated/extra.ts'), 'export {};\n'),
    drift: 'not generated (stale or hand-written): src/generated/extra.ts',
    summary: { written: 0, unchanged: 2, removed: 1 },
  },
];

describe('findDrift', () => {
  it('reports nothing when the files on disk are what the generators produce', async () => {
    expect(await findDrift(folders, display)).toEqual([]);
  });

  it.each(changes)('reports $change', async ({ apply, drift }) => {
    await apply(packageDir);
    expect(await findDrift(folders, display)).toEqual([drift]);
  });
});

describe('writeGenerated', () => {
  it.each(changes)('repairs $change and touches nothing else', async ({ apply, summary }) => {
    await apply(packageDir);
    expect(await writeGenerated(folders)).toEqual(summary);
    expect(await findDrift(folders, display)).toEqual([]);
  });

  it('leaves files that are already right as they are, so readers running beside it never see them go', async () => {
    const before = await Promise.all(files.map((f) => stat(join(packageDir, f.path))));
    expect(await writeGenerated(folders)).toEqual({ written: 0, unchanged: 2, removed: 0 });
    const after = await Promise.all(files.map((f) => stat(join(packageDir, f.path))));
    expect(after.map((s) => [s.ino, s.mtimeMs])).toEqual(before.map((s) => [s.ino, s.mtimeMs]));
  });

  it('writes into a package that has no generated folders yet and leaves no temporary file', async () => {
    await rm(join(packageDir, 'src'), { recursive: true });
    await rm(join(packageDir, 'spec'), { recursive: true });
    expect(await writeGenerated(folders)).toEqual({ written: 2, unchanged: 0, removed: 0 });
    for (const file of files) expect(await readFile(join(packageDir, file.path), 'utf8')).toBe(file.content);
    expect((await readdir(packageDir, { recursive: true })).sort()).toEqual(['spec', 'spec/openapi.yaml', 'src', 'src/generated', 'src/generated/openapi.ts']);
  });
});
