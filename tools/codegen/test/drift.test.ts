import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findDrift } from '../src/cli.js';

const generated = [
  { path: 'src/generated/openapi.ts', content: '// generated\nexport {};\n' },
  { path: 'spec/openapi.yaml', content: '# generated\nopenapi: 3.1.0\n' },
];

describe('findDrift', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'paykit-drift-'));
    for (const file of generated) {
      await mkdir(join(base, file.path, '..'), { recursive: true });
      await writeFile(join(base, file.path), file.content);
    }
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('reports nothing when the files on disk are what the generators produce', async () => {
    expect(await findDrift(base, ['src/generated', 'spec'], generated)).toEqual([]);
  });

  it.each([
    {
      change: 'a hand edit',
      apply: (dir: string) => writeFile(join(dir, 'src/generated/openapi.ts'), '// edited\n'),
      expected: /^differs: .*src\/generated\/openapi\.ts$/,
    },
    {
      change: 'a deleted file',
      apply: (dir: string) => rm(join(dir, 'spec/openapi.yaml')),
      expected: /^missing: .*spec\/openapi\.yaml$/,
    },
    {
      change: 'a stray file in a generated folder',
      apply: (dir: string) => writeFile(join(dir, 'src/generated/extra.ts'), 'export {};\n'),
      expected: /^not generated \(stale or hand-written\): .*src\/generated\/extra\.ts$/,
    },
  ])('reports $change', async ({ apply, expected }) => {
    await apply(base);
    const drift = await findDrift(base, ['src/generated', 'spec'], generated);
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatch(expected);
  });
});
