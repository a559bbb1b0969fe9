import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarationsOf } from '../src/declarations.js';
import { stateMachineTableDeclarations } from '../src/state-machines.js';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'paykit-declarations-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('declarationsOf', () => {
  it.each([
    { case: 'drops the opening // comment and the blank line after it', text: '// why\n// and how\n\n/** A. */\nexport type A = 1;\n', expected: '/** A. */\nexport type A = 1;\n' },
    { case: 'keeps a module that opens with its declarations', text: '/** A. */\nexport type A = 1;\n', expected: '/** A. */\nexport type A = 1;\n' },
    { case: 'keeps // comments further down', text: '// why\n\nexport type A = 1;\n// B next\nexport type B = 2;\n', expected: 'export type A = 1;\n// B next\nexport type B = 2;\n' },
  ])('$case', async ({ text, expected }) => {
    const file = join(dir, 'module.ts');
    await writeFile(file, text);
    expect(declarationsOf(pathToFileURL(file))).toBe(expected);
  });

  it('gives the state tables\' shapes, as the generated tables carry them, from their one definition', () => {
    const declarations = stateMachineTableDeclarations();
    expect(declarations).toMatch(/^\/\*\* Who or what fires a transition/);
    for (const name of ['TriggerKind', 'RuleReference', 'StateMachineTransition', 'StateMachineTable']) expect(declarations).toMatch(new RegExp(`^export (type|interface) ${name}\\b`, 'm'));
  });
});
