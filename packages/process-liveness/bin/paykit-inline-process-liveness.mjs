#!/usr/bin/env node
// paykit-inline-process-liveness [--outdir dist]
//
// The build step of a published package that uses this private package: run from the package's folder after tsc, it
// puts this package's one compiled module (and its declarations) at <outdir>/internal/process-liveness.js and points
// every emitted import of '@paykit/process-liveness' at it, so the published package needs nothing unpublished at
// install and exports nothing new (dist/internal is reached by no entry point). This package is one module that
// imports only Node's built-ins (checked here), so inlining it is a copy; a package with dependencies of its own would
// go through paykit-bundle-internal (packages/contract-validation) instead.
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const name = '@paykit/process-liveness';
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const outdir = resolve(values.outdir);
const own = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const specifier = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\2/g;

const fail = (message) => {
  console.error(`paykit-inline-process-liveness: ${message}`);
  process.exit(1);
};
if (!existsSync(join(own, 'index.js'))) fail(`${own}/index.js is missing: build ${name} first`);

const inlined = { js: join(outdir, 'internal', 'process-liveness.js'), dts: join(outdir, 'internal', 'process-liveness.d.ts') };
await mkdir(dirname(inlined.js), { recursive: true });
for (const [from, to] of [['index.js', inlined.js], ['index.d.ts', inlined.dts]]) {
  const text = await readFile(join(own, from), 'utf8');
  for (const [, , , imported] of text.matchAll(specifier)) {
    if (!imported.startsWith('node:')) fail(`${from} imports ${imported}: only Node's built-ins (node:...) can be inlined by a copy`);
  }
  await writeFile(to, text);
}

let rewritten = 0;
for (const entry of await readdir(outdir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.(d\.)?[cm]?[jt]s$/.test(entry.name)) continue;
  const file = join(entry.parentPath, entry.name);
  if (file === inlined.js || file === inlined.dts) continue;
  const text = await readFile(file, 'utf8');
  if (!text.includes(name)) continue;
  let path = relative(dirname(file), inlined.js);
  if (!path.startsWith('.')) path = `./${path}`;
  const next = text.replace(specifier, (whole, keyword, quote, imported) => (imported === name ? `${keyword}${quote}${path}${quote}` : whole));
  if (next.includes(`'${name}'`) || next.includes(`"${name}"`)) fail(`${relative('.', file)} names ${name} other than in an import`);
  await writeFile(file, next);
  rewritten++;
}
console.log(`${name}: inlined as ${relative('.', inlined.js)}, imported by ${rewritten} emitted file(s)`);
