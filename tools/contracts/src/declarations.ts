import { readFileSync } from 'node:fs';

/**
 * The declarations of a hand-written TypeScript module without its opening `//` comment: what a code generator copies
 * into a generated file, so that a type the generated code carries is written once, in that module, and type-checked
 * where the generator uses it too.
 */
export function declarationsOf(module: URL): string {
  return readFileSync(module, 'utf8').replace(/^(?:\/\/.*\n)+\n?/, '');
}
