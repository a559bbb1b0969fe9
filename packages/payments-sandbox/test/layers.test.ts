import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The sandbox's source is layered, and a layer imports only from itself and the layers below it (issue 35). The order,
// lowest first, read from the code: what the contract generates; the reference's rules (money, marks, the error body,
// links); the state and its stores; the contract's checks of a message; the handlers' shared types (handler-context.ts); the
// operation handlers; the HTTP server around them; the entry points. An import running back up (state/ importing the
// HTTP layer, say) fails here, so a domain type cannot drift back into the layer that serves it.
const layers = ['generated', 'rules', 'state', 'contract', 'handler-context.ts', 'resources', 'http', 'sandbox.ts', 'index.ts'] as const;

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** The layer of a file under src/: its folder, or its own name at the top. */
function layerOf(file: string): number {
  // An import names the emitted `.js`; the file at the top is its `.ts`.
  const first = file.split('/')[0]!.replace(/\.js$/, '.ts');
  const index = layers.indexOf(first as (typeof layers)[number]);
  if (index < 0) throw new Error(`${file} is in no layer: add its folder to the order in test/layers.test.ts`);
  return index;
}

/** The relative imports and re-exports of a module's text (static, type-only and dynamic). */
function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm)) found.push(match[1]!);
  return found;
}

/** Every import of `file` (relative to src/) that goes up, as `file -> target`. */
function upwardImports(file: string, text: string): string[] {
  return importsOf(text)
    .map((specifier) => posix.normalize(posix.join(posix.dirname(file), specifier)))
    .filter((target) => layerOf(target) > layerOf(file))
    .map((target) => `${file} -> ${target}`);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [relative(src, path).split('\\').join('/')] : [];
  });
}

describe('the sandbox layers', () => {
  it.each([
    ['state/records.ts', "import { ApiError } from '../http/api-error.js';", ['state/records.ts -> http/api-error.js']],
    ['contract/x.ts', "import type { Links } from '../rules/links.js';", []],
    ['resources/x.ts', "export { page } from '../handler-context.js';", []],
    ['handler-context.ts', "import type { Caller } from './http/auth.js';", ['handler-context.ts -> http/auth.js']],
    ['rules/x.ts', "const m = await import('../state/state.js');", ['rules/x.ts -> state/state.js']],
    ['generated/x.ts', "import '../sandbox.js';", ['generated/x.ts -> sandbox.js']],
    ['http/x.ts', "import { signTestPayload } from '@paykit/payments/webhooks';", []],
  ])('%s: %s', (file, text, expected) => {
    expect(upwardImports(file, text)).toEqual(expected);
  });

  it('a file outside the order is an error, not a pass', () => {
    expect(() => layerOf('elsewhere/x.ts')).toThrow(/in no layer/);
  });

  it('no file of src/ imports a layer above its own', () => {
    const files = sources(src);
    // The walk found the source, each layer of it: an empty list would pass vacuously.
    expect(new Set(files.map((file) => layers[layerOf(file)]))).toEqual(new Set(layers));
    const imports = files.flatMap((file) => importsOf(readFileSync(join(src, file), 'utf8')));
    expect(imports.length).toBeGreaterThan(100);
    const upward = files.flatMap((file) => upwardImports(file, readFileSync(join(src, file), 'utf8')));
    expect(upward).toEqual([]);
  });
});
