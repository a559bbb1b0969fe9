// Every TypeScript sample of the guides is type-checked against the real workspace packages, so an API change shows
// up here as a failing test instead of a guide that no longer compiles.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractCodeSamples } from '../scripts/code-samples.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { typeCheck, writeSamples } from './support/type-check.js';

const results = join(paths.docsRoot, 'test-results');

describe('extractCodeSamples', () => {
  it('takes ts blocks with their flags and first code line, and nothing else', () => {
    const markdown = ['# Guide', '', '```ts', 'const a = 1;', '```', '', '```sh', 'ls', '```', '', '```ts runnable', 'const b = 2;', 'console.log(b);', '```'].join('\n');
    expect(extractCodeSamples([{ source: '01-x.md', markdown }])).toEqual([
      { guide: '01-x.md', index: 0, line: 4, flags: [], code: 'const a = 1;' },
      { guide: '01-x.md', index: 1, line: 12, flags: ['runnable'], code: 'const b = 2;\nconsole.log(b);' },
    ]);
  });

  it('refuses a block that is never closed', () => {
    expect(() => extractCodeSamples([{ source: '01-x.md', markdown: '```ts\nconst a = 1;\n' }])).toThrow(/01-x.md:1: code block is never closed/);
  });
});

describe('type-checking samples', () => {
  it('reports a type error at its line in the guide', async () => {
    const dir = join(results, 'fixture-samples');
    const markdown = ['# Broken', '', 'Text.', '', '```ts', "const count: number = 'three';", '```'].join('\n');
    const byFile = writeSamples(extractCodeSamples([{ source: '09-broken.md', markdown }]), dir);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.samples.json', include: ['*.ts'] }));
    const errors = await typeCheck(join(dir, 'tsconfig.json'), byFile, paths.docsRoot);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^guides\/09-broken\.md:6:7 error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  it('every sample of the guides compiles against the workspace packages', async () => {
    const samples = extractCodeSamples(readGuides());
    expect(samples.length, 'the guides have TypeScript samples').toBeGreaterThan(0);
    const byFile = writeSamples(samples, join(results, 'samples'));
    expect(await typeCheck(join(paths.docsRoot, 'tsconfig.samples.json'), byFile, paths.docsRoot)).toEqual([]);
  });
});
