// How the guides' TypeScript samples are found (samples-compile.test.ts type-checks them, runnable-samples.test.ts runs
// the ones marked runnable).
import { describe, expect, it } from 'vitest';
import { extractCodeSamples } from '../scripts/code-samples.mjs';

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
