import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { entryPoints, type PackageManifest } from './entry-points.js';

/**
 * A package's public surface: every entry point of its `exports` and, for a JavaScript entry, the names it exports.
 * Every one is a semver promise to merchants, so the list is written down twice on purpose: in the package's README
 * ("## Entry points", for merchants) and in public-surface.json (for this check), and the packed package must match
 * both. A new export is then a decision somebody wrote down, never a side effect of an `export *`.
 */
export interface EntrySurface {
  /** Names a merchant's `import` gets at run time (functions, classes, constants), sorted. */
  values: string[];
  /** Names only the declarations have (interfaces, type aliases), sorted. */
  types: string[];
}

/** By `exports` key (`.`, `./webhooks`, `./spec/openapi.yaml`): a module's names, or `file` for anything else. */
export type PackageSurface = Record<string, EntrySurface | 'file'>;

/** The README's section that lists the entry points. */
export const readmeSection = '## Entry points';

/** Where the expected surfaces are written, by package name: what the release check compares the packed packages with. */
export const expectedSurfacesFile = fileURLToPath(new URL('../public-surface.json', import.meta.url));
export const expectedSurfacesName = 'tools/release-check/public-surface.json';

export function readExpectedSurfaces(): Record<string, PackageSurface> {
  return JSON.parse(readFileSync(expectedSurfacesFile, 'utf8')) as Record<string, PackageSurface>;
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/**
 * Every name each declaration file exports (`export *` and re-exports from other packages followed), by file. One
 * program for them all: tsc resolves the packages they import from where the files are installed.
 */
export function declaredNames(declarationFiles: string[]): Map<string, string[]> {
  // Names only, no type checking: no default library and no ambient @types to load.
  const program = ts.createProgram(declarationFiles, {
    noEmit: true,
    noLib: true,
    types: [],
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const file of declarationFiles) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`${file}: the TypeScript compiler cannot read it`);
    const module = checker.getSymbolAtLocation(source);
    names.set(file, module === undefined ? [] : sorted(checker.getExportsOfModule(module).map((symbol) => symbol.getName())));
  }
  return names;
}

/** The declaration file an `exports` target names (`types`), resolved in the package's folder. */
function declarationFileOf(target: string | Record<string, string>): string | undefined {
  return typeof target === 'string' ? undefined : target.types;
}

/**
 * The surface of an installed (or built) package: its `exports` keys, the run-time names of each module (`runtime`,
 * from importing it as a merchant's ES module does) and the declared names of its `.d.ts`; a declared name that is
 * not a run-time name is a type.
 */
export function surfaceOf(manifest: PackageManifest, runtime: Map<string, string[]>, declared: Map<string, string[]>): PackageSurface {
  const surface: PackageSurface = {};
  for (const entry of entryPoints(manifest)) {
    if (entry.kind !== 'module') {
      surface[entry.key] = 'file';
      continue;
    }
    const values = runtime.get(entry.key) ?? [];
    const types = declared.get(entry.key) ?? [];
    surface[entry.key] = { values: sorted(values), types: sorted(types.filter((name) => !values.includes(name))) };
  }
  return surface;
}

/** The declaration file of every module entry of a package installed or built in `dir`, by `exports` key. */
export function declarationFiles(dir: string, manifest: PackageManifest): Map<string, string> {
  const files = new Map<string, string>();
  for (const [key, target] of Object.entries(manifest.exports ?? {})) {
    const types = declarationFileOf(target);
    if (types !== undefined) files.set(key, join(dir, types));
  }
  return files;
}

/** Run-time names a module's declarations do not have: a merchant's TypeScript would not see them. */
export function undeclaredValues(runtime: Map<string, string[]>, declared: Map<string, string[]>): string[] {
  return [...runtime].flatMap(([key, values]) => values.filter((name) => !(declared.get(key) ?? []).includes(name)).map((name) => `${key}: ${name}`));
}

const specifierOf = (packageName: string, key: string) => (key === '.' ? packageName : `${packageName}/${key.slice(2)}`);
const keyOf = (packageName: string, specifier: string) => (specifier === packageName ? '.' : `./${specifier.slice(packageName.length + 1)}`);

/**
 * Reads the "## Entry points" section of a README: one `### \`specifier\`` heading per entry point, then for a module
 * a `Values:` and a `Types:` paragraph of backticked names (either may be `none`); an entry with neither is a file.
 */
export function readmeSurface(packageName: string, readme: string): PackageSurface | undefined {
  const start = readme.split('\n').findIndex((line) => line.trim() === readmeSection);
  if (start === -1) return undefined;
  const lines = readme.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => /^##? /.test(line));
  const section = (end === -1 ? lines : lines.slice(0, end)).join('\n');
  const surface: PackageSurface = {};
  for (const block of section.split(/^### /m).slice(1)) {
    const heading = /^`([^`]+)`/.exec(block);
    if (heading === null) throw new Error(`${packageName} README, ${readmeSection}: "### ${block.split('\n')[0]}" does not name an entry point in backticks`);
    const paragraphs = block.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim());
    const namesAfter = (label: string) => {
      const paragraph = paragraphs.find((p) => p.startsWith(`${label}:`));
      return paragraph === undefined ? undefined : [...paragraph.matchAll(/`([^`]+)`/g)].map(([, name]) => name!);
    };
    const values = namesAfter('Values');
    const types = namesAfter('Types');
    surface[keyOf(packageName, heading[1]!)] = values === undefined && types === undefined ? 'file' : { values: sorted(values ?? []), types: sorted(types ?? []) };
  }
  return surface;
}

/**
 * What differs between the surface a package has and the one written down, each line saying what to do: an export
 * nobody wrote down is either removed or added to both lists; one written down and missing was removed, which is a
 * breaking change.
 */
export function surfaceProblems(packageName: string, actual: PackageSurface, expected: PackageSurface | undefined, where: string): string[] {
  if (expected === undefined) return [`${packageName}: ${where} has no list of its entry points; add one (${readmeSection} in its README, its key in public-surface.json)`];
  const problems: string[] = [];
  const add = `if it is meant for merchants, add it to the package README's "${readmeSection}" and to tools/release-check/public-surface.json (a changeset says so); if not, do not export it`;
  const gone = `a merchant may import it: removing it is a breaking change (a changeset, and take it out of the README's "${readmeSection}" and public-surface.json)`;
  for (const key of sorted([...Object.keys(actual), ...Object.keys(expected)])) {
    const specifier = specifierOf(packageName, key);
    const has = actual[key];
    const wants = expected[key];
    if (wants === undefined) {
      problems.push(`${specifier} is an entry point ${where} does not list: ${add}`);
      continue;
    }
    if (has === undefined) {
      problems.push(`${specifier} is listed in ${where} but the package has no such entry point: ${gone}`);
      continue;
    }
    if (has === 'file' || wants === 'file') {
      if (has !== wants) problems.push(`${specifier} is ${has === 'file' ? 'a file' : 'a module'} in the package, ${wants === 'file' ? 'a file' : 'a module'} in ${where}`);
      continue;
    }
    for (const kind of ['values', 'types'] as const) {
      for (const name of has[kind].filter((n) => !wants[kind].includes(n))) problems.push(`${specifier} exports ${kind === 'values' ? 'the value' : 'the type'} ${name}, which ${where} does not list: ${add}`);
      for (const name of wants[kind].filter((n) => !has[kind].includes(n))) problems.push(`${specifier} does not export ${kind === 'values' ? 'the value' : 'the type'} ${name}, which ${where} lists: ${gone}`);
    }
  }
  return problems;
}

/**
 * Where a README's "Entry points" and public-surface.json disagree (both are written by hand, and must say the same):
 * each line names the entry and the name, and which of the two lists it.
 */
export function listProblems(packageName: string, readme: PackageSurface | undefined, listed: PackageSurface | undefined): string[] {
  const readmeName = `the ${packageName} README's "${readmeSection}"`;
  if (readme === undefined) return [`${readmeName} section is missing: add it, listing what ${expectedSurfacesName} lists for the package`];
  if (listed === undefined) return [`${expectedSurfacesName} has no "${packageName}": add it, listing what ${readmeName} lists`];
  const problems: string[] = [];
  const only = (where: string, other: string) => `${where} lists it and ${other} does not: write the same in both`;
  for (const key of sorted([...Object.keys(readme), ...Object.keys(listed)])) {
    const specifier = specifierOf(packageName, key);
    const a = readme[key];
    const b = listed[key];
    if (a === undefined || b === undefined) {
      problems.push(`entry point ${specifier}: ${a === undefined ? only(expectedSurfacesName, readmeName) : only(readmeName, expectedSurfacesName)}`);
      continue;
    }
    if (a === 'file' || b === 'file') {
      if (a !== b) problems.push(`entry point ${specifier} is ${a === 'file' ? 'a file' : 'a module'} in ${readmeName}, ${b === 'file' ? 'a file' : 'a module'} in ${expectedSurfacesName}`);
      continue;
    }
    for (const kind of ['values', 'types'] as const) {
      const label = kind === 'values' ? 'value' : 'type';
      for (const name of b[kind].filter((n) => !a[kind].includes(n))) problems.push(`${specifier} ${label} ${name}: ${only(expectedSurfacesName, readmeName)}`);
      for (const name of a[kind].filter((n) => !b[kind].includes(n))) problems.push(`${specifier} ${label} ${name}: ${only(readmeName, expectedSurfacesName)}`);
    }
  }
  return problems;
}
