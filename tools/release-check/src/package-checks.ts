// Checks of one installed package, each returning the problems it found as short sentences (empty: none), so that a
// test fails with them as its message.
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { lstat, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { PackageManifest } from './entry-points.js';

/** Every file of a package folder, relative to it, without nested node_modules (npm may nest dependencies there). */
export async function packageFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') await walk(path);
      } else {
        files.push(relative(dir, path).split(sep).join('/'));
      }
    }
  };
  await walk(dir);
  return files.sort();
}

/** The fields a merchant (and the npm website) reads: licence, engines, repository with its folder, keywords. */
export function manifestProblems(manifest: PackageManifest, directory: string): string[] {
  const problems: string[] = [];
  if (manifest.license !== 'MIT') problems.push(`license is ${JSON.stringify(manifest.license)}, not "MIT"`);
  const engines = manifest.engines as { node?: unknown } | undefined;
  if (typeof engines?.node !== 'string') problems.push('no engines.node');
  const repository = manifest.repository as { type?: unknown; url?: unknown; directory?: unknown } | undefined;
  if (repository?.type !== 'git' || typeof repository.url !== 'string') problems.push('no repository with type "git" and a url');
  if (repository?.directory !== directory) problems.push(`repository.directory is ${JSON.stringify(repository?.directory)}, not "${directory}"`);
  const keywords = manifest.keywords;
  if (!Array.isArray(keywords) || keywords.length === 0 || !keywords.every((k) => typeof k === 'string' && k !== '')) {
    problems.push('no keywords');
  }
  // A required peer on a types package makes npm and pnpm install its newest release (the types of a runtime the
  // merchant may not run, e.g. @types/node 26 into a Node 20 project): the merchant's own copy is what counts.
  const peers = (manifest.peerDependencies as Record<string, string> | undefined) ?? {};
  const peerMeta = (manifest.peerDependenciesMeta as Record<string, { optional?: unknown }> | undefined) ?? {};
  for (const name of Object.keys(peers).filter((n) => n.startsWith('@types/'))) {
    if (peerMeta[name]?.optional !== true) problems.push(`peer dependency ${name} is not optional (peerDependenciesMeta.${name}.optional)`);
  }
  return problems;
}

/** README, LICENSE (the MIT text) and the CHANGELOG that `changeset version` wrote for this very version. */
export async function documentProblems(dir: string, version: string): Promise<string[]> {
  const read = (name: string) => readFile(join(dir, name), 'utf8').catch(() => undefined);
  const problems: string[] = [];
  const readme = await read('README.md');
  if (readme === undefined) problems.push('no README.md');
  else if (!readme.startsWith('# ')) problems.push('README.md does not start with a title');
  const licence = await read('LICENSE');
  if (licence === undefined) problems.push('no LICENSE');
  else if (!/^MIT License\b/.test(licence) || !licence.includes('Permission is hereby granted, free of charge')) {
    problems.push('LICENSE is not the MIT licence text');
  }
  const changelog = await read('CHANGELOG.md');
  if (changelog === undefined) problems.push('no CHANGELOG.md');
  else if (!changelog.includes(`## ${version}\n`)) problems.push(`CHANGELOG.md has no section for ${version}`);
  return problems;
}

const localProtocols = /^(workspace|file|link|portal):/;

/** Dependency specifiers that only mean something inside our workspace. */
export function localDependencyProblems(manifest: PackageManifest): string[] {
  const problems: string[] = [];
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies']) {
    for (const [name, spec] of Object.entries((manifest[field] as Record<string, string> | undefined) ?? {})) {
      if (localProtocols.test(spec)) problems.push(`${field}.${name} is "${spec}"`);
    }
  }
  return problems;
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** Files named by package.json (exports targets, bins, main/types) that are not in the package. */
export function missingManifestFileProblems(manifest: PackageManifest, files: string[]): string[] {
  const shipped = new Set(files);
  const named = [...stringLeaves(manifest.exports), ...stringLeaves(manifest.bin), ...stringLeaves([manifest.main, manifest.types])];
  return [...new Set(named.map((path) => path.replace(/^\.\//, '')))]
    .filter((path) => !shipped.has(path))
    .map((path) => `package.json names ${path}, which is not shipped`);
}

const relativeSpecifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * Relative imports in shipped JavaScript and declaration files that point at nothing shipped (`./x.js` in a
 * `.d.ts` means `./x.d.ts`, as TypeScript reads it).
 */
export async function unresolvedImportProblems(dir: string, files: string[]): Promise<string[]> {
  const shipped = new Set(files);
  const problems: string[] = [];
  for (const file of files.filter((f) => /\.(m?js|d\.m?ts)$/.test(f))) {
    const text = await readFile(join(dir, file), 'utf8');
    const declaration = /\.d\.m?ts$/.test(file);
    for (const [, specifier] of text.matchAll(relativeSpecifier)) {
      const target = relative(dir, resolve(dir, dirname(file), specifier!)).split(sep).join('/');
      const candidates = declaration ? [target.replace(/\.(m?)js$/, '.d.$1ts'), target] : [target];
      if (!candidates.some((c) => shipped.has(c))) problems.push(`${file} imports ${specifier}, which is not shipped`);
    }
  }
  return problems;
}

/**
 * Source maps whose sources are not in the package: a debugger or an editor following them finds nothing. Reported
 * once per missing top folder (`src/`), since one missing folder breaks every map that points into it.
 */
export async function sourceMapProblems(dir: string, files: string[]): Promise<string[]> {
  const shipped = new Set(files);
  const missing = new Map<string, number>();
  for (const file of files.filter((f) => f.endsWith('.map'))) {
    const map = JSON.parse(await readFile(join(dir, file), 'utf8')) as { sources?: string[]; sourceRoot?: string };
    for (const source of map.sources ?? []) {
      const target = relative(dir, resolve(dir, dirname(file), map.sourceRoot ?? '', source)).split(sep).join('/');
      if (shipped.has(target)) continue;
      const top = target.startsWith('..') ? target : `${target.split('/')[0]}/`;
      missing.set(top, (missing.get(top) ?? 0) + 1);
    }
  }
  return [...missing.keys()].map((top) => `source maps point at ${top}, which is not shipped`);
}

/** Shipped text files that contain an absolute path of the machine that built them (the repository, the copy). */
export async function buildPathProblems(dir: string, files: string[], buildPaths: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const path of buildPaths) if (text.includes(path)) problems.push(`${file} contains the build path ${path}`);
  }
  return problems;
}

/**
 * Symbolic links anywhere in a project's node_modules (and in `otherFolders`, such as a pnpm virtual store kept
 * outside the project) that lead into one of `forbiddenRoots`. Paths are reported relative to the project.
 */
export async function symlinkProblems(projectDir: string, forbiddenRoots: string[], otherFolders: string[] = []): Promise<string[]> {
  const problems: string[] = [];
  const inside = (path: string, root: string) => path === root || path.startsWith(root + sep);
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await realpath(path).catch(async () => resolve(current, await readlink(path)));
        if (forbiddenRoots.some((root) => inside(target, root))) problems.push(`${relative(projectDir, path)} -> ${target}`);
      } else if (entry.isDirectory()) {
        await walk(path);
      }
    }
  };
  for (const folder of [join(projectDir, 'node_modules'), ...otherFolders]) {
    if ((await lstat(folder).catch(() => undefined))?.isDirectory()) await walk(folder);
  }
  return problems;
}

// Bare specifiers: what follows `from`, `import`, `import(` or `require(` when it is not a relative or absolute path.
const bareSpecifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"./][^'"\s]*)['"]/g;
const nodeBuiltins = new Set(builtinModules);

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * Packages that the modules we compiled import without declaring them in `dependencies`, `peerDependencies` or
 * `optionalDependencies`: installed beside a package that declares them, they load, and alone they do not. Our
 * compiled modules are the declaration files and the JavaScript files that have one (`x.js` beside `x.d.ts`); a
 * bundle of third-party code (Prism's, in @paykit/mock-server) carries its dependencies inside, and its optional
 * `require`s of what it does not are not ours to declare. Node's built-ins and the package itself need no
 * declaration; a type-only import of `x` is declared by `x` or `@types/x`.
 */
export async function undeclaredImportProblems(dir: string, files: string[], manifest: PackageManifest): Promise<string[]> {
  const shipped = new Set(files);
  const declared = new Set(
    ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})),
  );
  const compiled = files.filter((f) => /\.d\.[cm]?ts$/.test(f) || (/\.[cm]?js$/.test(f) && shipped.has(f.replace(/\.([cm]?)js$/, '.d.$1ts'))));
  // The package's own subpath imports (`#platform`): its package.json's `imports` maps them to its own files.
  const ownImports = new Set(Object.keys((manifest.imports as Record<string, unknown> | undefined) ?? {}));
  const problems = new Map<string, string>();
  for (const file of compiled) {
    const declaration = /\.d\.[cm]?ts$/.test(file);
    for (const [, specifier] of (await readFile(join(dir, file), 'utf8')).matchAll(bareSpecifier)) {
      if (ownImports.has(specifier!)) continue;
      const name = packageNameOf(specifier!);
      if (specifier!.startsWith('node:') || nodeBuiltins.has(name) || name === manifest.name || declared.has(name)) continue;
      if (declaration && declared.has(`@types/${name.replace(/^@/, '').replace('/', '__')}`)) continue;
      if (!problems.has(name)) problems.set(name, `${file} imports ${specifier}, but ${name} is not in its dependencies`);
    }
  }
  return [...problems.values()];
}

/** Total size of the package's files as installed, in bytes. */
export async function unpackedBytes(dir: string, files: string[]): Promise<number> {
  let total = 0;
  for (const file of files) total += (await lstat(join(dir, file))).size;
  return total;
}

/** Where a package is installed in a project, following pnpm's links to the real folder. */
export async function installedPackageDir(projectDir: string, name: string): Promise<string> {
  const link = join(projectDir, 'node_modules', ...name.split('/'));
  if (!existsSync(link)) throw new Error(`${name} is not installed in ${projectDir}`);
  return realpath(link);
}

/**
 * Every version of a package installed under the given folders (a project's `node_modules`, pnpm's virtual store),
 * nested copies included; symbolic links are not followed, so a copy is counted where it really is.
 */
export async function installedVersions(folders: string[], name: string): Promise<string[]> {
  const manifestPath = `${name}/package.json`;
  const versions = new Set<string>();
  for (const folder of folders) {
    const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
    for (const entry of entries) {
      if (entry !== `node_modules/${manifestPath}` && !entry.endsWith(`/node_modules/${manifestPath}`) && entry !== manifestPath) continue;
      versions.add((JSON.parse(await readFile(join(folder, entry), 'utf8')) as { version: string }).version);
    }
  }
  return [...versions].sort();
}

