#!/usr/bin/env node
// paykit-bundle-internal ENTRY... [--outdir dist]
//
// The one build step of a published package that uses a private workspace package (@paykit/contract-validation,
// @paykit/process-liveness, ...): bundles the package's entry points with esbuild into --outdir, inlining whatever its
// package.json does not list as a dependency (the private packages, and what they import), and leaving its
// dependencies, peer dependencies and Node's built-in modules as imports. The declarations
// `tsc --emitDeclarationOnly` wrote for modules the entry points' declarations do not reach are removed (their code
// is in the bundle, their types are nobody's business), and the licence texts of the third-party code inlined go to
// THIRD-PARTY-NOTICES.txt. Then it checks the result as a merchant's install would see it: no emitted JavaScript or
// declaration file may import a package the manifest does not declare, so a published package never needs an
// unpublished one at install. Run it from the package's folder after `tsc --emitDeclarationOnly`, with every entry
// point of the package's `exports` and `bin` (a bin keeps its `#!` line).
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values, positionals: entryPoints } = parseArgs({
  options: { outdir: { type: 'string', default: 'dist' } },
  allowPositionals: true,
});
if (entryPoints.length === 0) {
  console.error('usage: paykit-bundle-internal ENTRY... [--outdir dist]');
  process.exit(2);
}

const manifest = JSON.parse(await readFile('package.json', 'utf8'));
const declared = new Set(['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {})));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`). */
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const external = (specifier) => builtins.has(specifier) || specifier.startsWith('node:') || declared.has(packageOf(specifier));
/**
 * Whether a declared package's entry point a specifier names is one its `exports` list (exact, or a `*` pattern): a
 * subpath it does not export resolves in the workspace by its folder, but not in a merchant's install.
 */
const exportedBy = (specifier) => {
  if (builtins.has(specifier) || specifier.startsWith('node:')) return true;
  const name = packageOf(specifier);
  const manifestPath = join('node_modules', name, 'package.json');
  if (!existsSync(manifestPath)) return true;
  const { exports } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (exports === undefined || typeof exports === 'string' || Array.isArray(exports)) return specifier === name || exports === undefined;
  const keys = Object.keys(exports);
  if (!keys.some((key) => key.startsWith('.'))) return specifier === name;
  const subpath = `.${specifier.slice(name.length)}`;
  return keys.some((key) => {
    const star = key.indexOf('*');
    return star < 0 ? key === subpath : subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1));
  });
};

const result = await build({
  entryPoints,
  outdir: values.outdir,
  outbase: 'src',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Whitespace and syntax only: names stay readable in a merchant's stack trace.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // Code two entry points share (or a lazy import) goes to one chunk under chunks/, so a class both entry points export
  // is one class (an `instanceof` holds whichever entry point a merchant imported it from).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'declared-dependencies-stay-imports',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, ({ path }) => (external(path) ? { path, external: true } : undefined));
      },
    },
  ],
});

const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;
const declarationOf = (path) => path.replace(/\.[cm]?[jt]s$/, '.d.ts');

// The declarations the entry points reach, following relative imports (`./x.js` is `./x.d.ts` to TypeScript).
const reached = new Set();
const queue = entryPoints.map((entry) => resolve(values.outdir, relative('src', declarationOf(entry))));
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file) || !existsSync(file)) continue;
  reached.add(file);
  for (const [, , imported] of (await readFile(file, 'utf8')).matchAll(specifier)) {
    if (imported.startsWith('.')) queue.push(resolve(dirname(file), declarationOf(imported)));
  }
}
for (const entry of await readdir(values.outdir, { recursive: true, withFileTypes: true })) {
  const file = resolve(entry.parentPath, entry.name);
  if (entry.isFile() && /\.d\.[cm]?ts$/.test(entry.name) && !reached.has(file)) await rm(file);
}

const problems = new Set();
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  for (const { path, external: isExternal } of output.imports) {
    if (isExternal && !external(path)) problems.add(`${file} imports ${path}, which package.json does not declare`);
    else if (isExternal && !exportedBy(path)) problems.add(`${file} imports ${path}, an entry point ${packageOf(path)} does not export`);
  }
}
for (const file of reached) {
  for (const [, , imported] of (await readFile(file, 'utf8')).matchAll(specifier)) {
    if (!imported.startsWith('.') && !external(imported)) {
      problems.add(`${relative('.', file)} names ${imported}, which a merchant's install does not have (declare the types in this package)`);
    } else if (!imported.startsWith('.') && !exportedBy(imported)) {
      problems.add(`${relative('.', file)} names ${imported}, an entry point ${packageOf(imported)} does not export`);
    }
  }
}
if (problems.size > 0) {
  console.error(`paykit-bundle-internal: the build of ${manifest.name} reaches outside what it declares:\n  ${[...problems].join('\n  ')}`);
  process.exit(1);
}

/** The folder of the package a bundled file belongs to (its nearest package.json), and that manifest. */
async function ownerOf(file) {
  for (let dir = dirname(resolve(file)); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) return { dir, manifest: JSON.parse(await readFile(path, 'utf8')) };
  }
  return undefined;
}
const inlined = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const owner = await ownerOf(input);
  if (owner && owner.manifest.name !== manifest.name) inlined.set(owner.dir, owner.manifest);
}
const thirdParty = [...inlined].filter(([, owned]) => !owned.private);
const notices = [];
for (const [dir, owned] of thirdParty.sort(([, a], [, b]) => a.name.localeCompare(b.name))) {
  const licence = (await readdir(dir)).find((name) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(name));
  const text = licence ? (await readFile(join(dir, licence), 'utf8')).trim() : `License: ${owned.license ?? 'see the package'}`;
  notices.push(`${owned.name}@${owned.version}\n${'-'.repeat(60)}\n${text}\n`);
}
const noticesPath = join(values.outdir, 'THIRD-PARTY-NOTICES.txt');
if (notices.length > 0) await writeFile(noticesPath, `The bundled code of this package includes the following packages; their licences follow.\n\n${notices.join('\n')}`);
const sizes = Object.entries(result.metafile.outputs).map(([file, output]) => `${relative('.', file)} ${Math.round(output.bytes / 1024)} KiB`);
console.log(
  `${manifest.name}: ${sizes.join(', ')}; inlined ${[...inlined.values()].map((owned) => owned.name).sort().join(', ') || 'nothing'}` +
    (notices.length ? `; licences in ${relative('.', noticesPath)}` : ''),
);
