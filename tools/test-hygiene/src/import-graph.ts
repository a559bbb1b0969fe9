// The workspace's packages import each other downward only, the direction their package.json files declare: the
// check reads every import of every source file and holds it to its package's declared dependencies.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';
import { workspacePackages, type WorkspacePackage } from './workspace.js';

export interface ImportProblem {
  /** Relative to the root, with `/`; for a cycle of declarations, the package.json of its first package. */
  file: string;
  line: number;
  message: string;
}

interface Manifest {
  name: string;
  private?: boolean;
  keywords?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface GraphPackage extends WorkspacePackage {
  manifest: Manifest;
  /** Workspace packages it declares in any dependency field: the only ones any of its files may import. */
  declared: Set<string>;
  /** Those it declares as what it ships with (dependencies, peer and optional): what its shipped code may import. */
  shippedWith: Set<string>;
}

const skippedDirs = new Set(['node_modules', 'dist', '.turbo', 'coverage', '.git', '.paykit']);
/**
 * Folders of code for a merchant's project, not the package's own: the release check copies `samples/` into fresh
 * projects that install our packages from a registry. Like a folder with a package.json of its own, not read.
 */
const merchantProjectDirs = new Set(['samples']);
const sourceFile = /\.(?:[cm]?[jt]sx?)$/;
/** Folders of a package whose files are not shipped: its tests, benchmarks and build scripts. */
const unshippedDirs = new Set(['test', 'bench', 'scripts']);
/** The keyword that makes a package a mock (`@paykit/mock-server`, the sandbox, the file exchange mock). */
const mockKeyword = 'mock';
const toPosix = (path: string) => path.split(sep).join('/');

/** Files of a package, without its own nested projects (a folder with a package.json of its own is not its code). */
function sourceFiles(root: string, dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string, top: boolean) => {
    const entries = readdirSync(at, { withFileTypes: true });
    if (!top && entries.some((entry) => entry.name === 'package.json')) return;
    for (const entry of entries) {
      if (skippedDirs.has(entry.name) || (entry.isDirectory() && merchantProjectDirs.has(entry.name))) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path, false);
      else if (entry.isFile() && sourceFile.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(toPosix(relative(root, path)));
    }
  };
  walk(join(root, dir), true);
  return files.sort();
}

/** The workspace package a bare specifier names (`@scope/name`, `@scope/name/sub`, `name/sub`), if any. */
function packageOfSpecifier(specifier: string, byName: Map<string, GraphPackage>): GraphPackage | undefined {
  const parts = specifier.split('/');
  return byName.get(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
}

/** The package whose folder holds `file` (relative to the root), if any. */
function packageOfFile(file: string, packages: GraphPackage[]): GraphPackage | undefined {
  return packages.find((pkg) => file === pkg.dir || file.startsWith(`${pkg.dir}/`));
}

/** Every import of a file, with its line: static and dynamic imports, re-exports, `require` calls. */
function importsOf(text: string): { specifier: string; line: number }[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((ref) => ({ specifier: ref.fileName, line: text.slice(0, ref.pos).split('\n').length }));
}

/** The cycles of the declared graph (each once, from its first package by name). */
function declaredCycles(packages: GraphPackage[], byName: Map<string, GraphPackage>): string[][] {
  const cycles = new Map<string, string[]>();
  const visit = (name: string, path: string[]) => {
    const at = path.indexOf(name);
    if (at >= 0) {
      const cycle = path.slice(at);
      const first = [...cycle].sort()[0]!;
      const rotated = [...cycle.slice(cycle.indexOf(first)), ...cycle.slice(0, cycle.indexOf(first))];
      cycles.set(rotated.join(' '), rotated);
      return;
    }
    for (const next of byName.get(name)?.declared ?? []) visit(next, [...path, name]);
  };
  for (const pkg of packages) visit(pkg.name, []);
  return [...cycles.values()];
}

/**
 * The imports of the workspace at `root` that run against the direction its package.json files declare:
 * - every import of another workspace package (by name, or a relative path into its folder) names one that the
 *   importing package declares in a dependency field; and the declared graph has no cycle, so an import back up can
 *   be neither written nor declared;
 * - a published package's shipped code (all but `test/`, `bench/`, `scripts/`) imports only what it ships with
 *   (dependencies, peer, optional) or a private package of `packages/` that its build bundles in, never a package of
 *   `tools/` (which build and check, and are not published);
 * - a package that is not a mock (no `mock` keyword) imports no mock in its shipped code.
 */
export function importGraphProblems(root: string): { problems: ImportProblem[]; packages: number; imports: number } {
  const packages: GraphPackage[] = workspacePackages(root).map((pkg) => {
    const manifest = JSON.parse(readFileSync(join(root, pkg.dir, 'package.json'), 'utf8')) as Manifest;
    const shipped = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
    return { ...pkg, manifest, declared: new Set(Object.keys({ ...shipped, ...manifest.devDependencies })), shippedWith: new Set(Object.keys(shipped)) };
  });
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  for (const pkg of packages) for (const name of [...pkg.declared]) if (!byName.has(name)) pkg.declared.delete(name);
  const isTool = (pkg: GraphPackage) => pkg.dir.startsWith('tools/');
  const isMock = (pkg: GraphPackage) => (pkg.manifest.keywords ?? []).includes(mockKeyword);

  const problems: ImportProblem[] = declaredCycles(packages, byName).map((cycle) => ({
    file: `${byName.get(cycle[0]!)!.dir}/package.json`,
    line: 1,
    message: `the declared dependencies run in a circle: ${[...cycle, cycle[0]].join(' -> ')}`,
  }));
  let imports = 0;
  for (const pkg of packages) {
    for (const file of sourceFiles(root, pkg.dir)) {
      const shipped = !pkg.manifest.private && !unshippedDirs.has(file.slice(pkg.dir.length + 1).split('/')[0]!);
      for (const { specifier, line } of importsOf(readFileSync(join(root, file), 'utf8'))) {
        const target = specifier.startsWith('.')
          ? packageOfFile(posix.normalize(posix.join(dirname(file), specifier)), packages)
          : packageOfSpecifier(specifier, byName);
        if (!target || target === pkg) continue;
        imports += 1;
        const report = (message: string) => problems.push({ file, line, message: `${specifier}: ${message}` });
        if (!pkg.declared.has(target.name)) report(`${pkg.name} does not declare ${target.name} in its package.json: an import the dependencies do not allow (upward, or sideways)`);
        else if (shipped && isTool(target)) report(`shipped code of the published ${pkg.name} imports the tool ${target.name}, which is not published`);
        else if (shipped && !pkg.shippedWith.has(target.name) && !(target.manifest.private && !isTool(target)))
          report(`shipped code of ${pkg.name} imports ${target.name}, a devDependency only: a merchant's install would not have it`);
        else if (shipped && isMock(target) && !isMock(pkg)) report(`${pkg.name} is no mock, yet its shipped code imports the mock ${target.name}`);
      }
    }
  }
  return { problems, packages: packages.length, imports };
}
