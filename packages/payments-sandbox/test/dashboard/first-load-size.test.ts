// The dashboard's first load stays small: index.html and everything it loads before the first view shows (its
// scripts, with the modules they import statically, and its style sheets), minified as built and compressed with
// gzip -9, at most 100 kB (1 kB = 1000 bytes). Measured on the built files (dist/dashboard), so it is what the
// sandbox serves; deterministic: the same build gives the same bytes.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const built = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));
const budget = 100_000;

/** The relative modules a script imports statically (esbuild writes `import{a}from"./chunk-X.js"`, `import"./x.js"`). */
const staticImports = (code: string) => [...code.matchAll(/\bimport\s*(?:[\w${}\s,*]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);

/** The files a page loads before it can show: `<script src>`, `<link rel=stylesheet|modulepreload href>`, and the static imports of each script. */
function firstLoad(root: string): string[] {
  const files = [join(root, 'index.html')];
  const html = readFileSync(files[0]!, 'utf8');
  const referenced = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g), ...html.matchAll(/<link\b[^>]*\brel="(?:stylesheet|modulepreload)"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!);
  const queue = referenced.map((url) => join(root, url));
  while (queue.length) {
    const file = queue.shift()!;
    if (files.includes(file)) continue;
    files.push(file);
    if (!file.endsWith('.js')) continue;
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) queue.push(join(dirname(file), specifier));
  }
  return files;
}

describe('the dashboard first load', () => {
  it('is built (the package build runs dashboard/build.mjs)', () => {
    expect(existsSync(join(built, 'index.html')), `no ${built}index.html: run the package's build`).toBe(true);
  });

  it(`is at most ${budget} B gzipped: index.html, its scripts and style sheets`, () => {
    const files = firstLoad(built);
    const sizes = files.map((file) => ({ file: relative(built, file), gzipped: gzipSync(readFileSync(file), { level: 9 }).length }));
    const total = sizes.reduce((sum, s) => sum + s.gzipped, 0);
    console.log(`dashboard first load: ${sizes.map((s) => `${s.file} ${s.gzipped} B`).join(', ')}; total ${total} B gzipped (budget ${budget})`);
    expect(sizes.map((s) => s.file)).toEqual(expect.arrayContaining(['index.html', 'assets/app.js', 'assets/app.css']));
    expect(total).toBeLessThanOrEqual(budget);
  });

  it('loads everything by relative address from its own origin, with no inline script or style', () => {
    const html = readFileSync(join(built, 'index.html'), 'utf8');
    const addresses = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(address, address).toMatch(/^(?:assets\/[\w.-]+|data:,?)$/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style\b|\bstyle="/);
  });

  it('would count a statically imported chunk (the walk can find one)', () => {
    const code = 'import{a as b}from"./chunk-ABC.js";import"./side.js";const c=await import("./lazy.js");';
    expect(staticImports(code)).toEqual(['./chunk-ABC.js', './side.js']);
  });
});
