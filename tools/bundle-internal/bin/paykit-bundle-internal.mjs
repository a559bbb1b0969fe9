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
//
// --from-source SPECIFIER=PATH (repeatable): SPECIFIER is an internal entry of a declared package (one its `exports`
// do not list, e.g. `@paykit/file-exchange/core`), bundled here from its source PATH. Each of that package's modules
// whose every runtime export is also exported by the package's main entry becomes an import of the package instead
// (so its classes stay the very classes the package exports, one `instanceof` across both packages); a module inlined
// that way may not export a class the main entry exports (a second copy of a public class fails the build).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values, positionals: entryPoints } = parseArgs({
  options: {
    outdir: { type: 'string', default: 'dist' },
    'from-source': { type: 'string', multiple: true, default: [] },
  },
  allowPositionals: true,
});
if (entryPoints.length === 0) {
  console.error('usage: paykit-bundle-internal ENTRY... [--outdir dist] [--from-source SPECIFIER=PATH]...');
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

/** The folder of the package a file belongs to (its nearest package.json), and that manifest. */
async function ownerOf(file) {
  for (let dir = dirname(resolve(file)); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) return { dir, manifest: JSON.parse(await readFile(path, 'utf8')) };
  }
  return undefined;
}

const problems = new Set();
const requireHere = createRequire(resolve('package.json'));
/** Per --from-source: the specifier, its source entry, its package's name and folder, and the main entry's exports. */
const fromSource = [];
for (const option of values['from-source']) {
  const [spec, path] = option.split('=');
  const owner = path === undefined ? undefined : await ownerOf(path);
  if (!owner || !declared.has(packageOf(spec)) || owner.manifest.name !== packageOf(spec)) {
    console.error(`paykit-bundle-internal: --from-source ${option}: expected SPECIFIER=PATH, PATH a source file of ${packageOf(spec)}, a declared package`);
    process.exit(2);
  }
  // The main entry as this package's install resolves it (built before this build: turbo's ^build).
  const main = await import(pathToFileURL(requireHere.resolve(owner.manifest.name)).href);
  fromSource.push({ spec, entry: resolve(path), name: owner.manifest.name, manifest: owner.manifest, dir: owner.dir, main });
}
const sourceOf = (file) => fromSource.find(({ dir }) => file.startsWith(`${dir}/`) && !relative(dir, file).split('/').includes('node_modules'));
const isClass = (value) => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
/** A source module's runtime exports (its types aside), as esbuild bundles it alone. */
const runtimeExports = new Map();
async function exportsOf(file) {
  if (!runtimeExports.has(file)) {
    const alone = await build({
      entryPoints: [file],
      bundle: true,
      write: false,
      outdir: 'out',
      platform: 'node',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
      packages: 'external',
    });
    runtimeExports.set(file, Object.values(alone.metafile.outputs).find((output) => output.entryPoint)?.exports ?? []);
  }
  return runtimeExports.get(file);
}
/** The file a relative import of a TypeScript source names (`./x.js` is `./x.ts`). */
function sourceFile(importer, path) {
  const target = resolve(dirname(importer), path);
  return [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')].find((file) => existsSync(file) && statSync(file).isFile());
}

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
      name: 'internal-entries-from-source',
      setup(build) {
        for (const { spec, entry } of fromSource) {
          const exact = new RegExp(`^${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
          build.onResolve({ filter: exact }, () => ({ path: entry }));
        }
        build.onResolve({ filter: /^\./ }, async ({ path, importer }) => {
          const source = sourceOf(importer);
          const file = source && sourceFile(importer, path);
          if (!file || !sourceOf(file)) return undefined;
          const names = await exportsOf(file);
          if (names.length > 0 && names.every((name) => name in source.main)) return { path: source.name, external: true };
          const copied = names.filter((name) => isClass(source.main[name]));
          if (copied.length > 0) {
            problems.add(
              `${relative('.', file)} would be inlined with ${copied.join(', ')}, classes ${source.name} exports: a second copy ` +
                `(instanceof fails across the packages); move what ${source.name} does not export out of that module`,
            );
          }
          return undefined;
        });
      },
    },
    {
      name: 'declared-dependencies-stay-imports',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
          if (external(path)) return { path, external: true };
          // A dependency of a package inlined from source is its dependency, not ours: inlining it would bundle a
          // third party's code silently.
          const source = sourceOf(importer);
          const theirs = source && ['dependencies', 'peerDependencies', 'optionalDependencies'].some((field) => packageOf(path) in (source.manifest[field] ?? {}));
          if (theirs) problems.add(`${relative('.', importer)} (from source) imports ${path}, a dependency of ${source.name} that package.json does not declare`);
          return undefined;
        });
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

const inlined = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const owner = await ownerOf(input);
  if (owner && owner.manifest.name !== manifest.name) inlined.set(owner.dir, owner.manifest);
}
// Our own published package inlined from source (--from-source) is not third-party code.
const thirdParty = [...inlined].filter(([, owned]) => !owned.private && !fromSource.some(({ name }) => name === owned.name));
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
