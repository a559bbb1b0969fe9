import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface WorkspacePackage {
  name: string;
  /** Relative to the root, with `/`. */
  dir: string;
}

/** What the check reads in one package: its vitest configs and its test files. */
export interface PackageFiles {
  configs: string[];
  testFiles: string[];
}

const skippedDirs = new Set(['node_modules', 'dist', '.turbo', 'coverage', '.git', '.paykit']);
const scriptFile = /\.(?:[cm]?[jt]sx?)$/;
const namedTestFile = /\.(?:test|spec)(?:-d)?\.[cm]?[jt]sx?$/;
const vitestConfig = /^vitest\.(?:config|workspace)\.[cm]?[jt]s$/;

/**
 * The check's own fixtures break every rule on purpose (its tests read them); they are never run. Nothing else is
 * left out.
 */
export const ownFixtures = 'tools/test-hygiene/test/fixtures';

const toPosix = (path: string) => path.split(sep).join('/');

/** The nearest folder at or above `from` with a pnpm-workspace.yaml. */
export function findRoot(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The packages pnpm-workspace.yaml lists (`dir`, `dir/*`), each a folder with a package.json. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\s*\n((?:[ \t]*(?:-.*|#.*)?\n?)*)/m.exec(text)?.[1] ?? '';
  const patterns = [...block.matchAll(/^[ \t]*-[ \t]*['"]?([^'"\s#]+)['"]?/gm)].map((match) => match[1]!);
  const dirs = new Set<string>();
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    const wildcard = /^(.*?)\/\*{1,2}$/.exec(pattern);
    if (!wildcard) {
      dirs.add(pattern);
      continue;
    }
    const parent = join(root, wildcard[1]!);
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent, { withFileTypes: true })) if (entry.isDirectory()) dirs.add(`${wildcard[1]}/${entry.name}`);
  }
  return [...dirs]
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, name: (JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name?: string }).name ?? dir }))
    .sort((a, b) => a.dir.localeCompare(b.dir));
}

function walk(dir: string, onFile: (path: string) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skippedDirs.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, onFile);
    else if (entry.isFile()) onFile(path);
  }
}

/** A package's vitest configs (at its root) and test files: every script under test/, and *.test.* / *.spec.* anywhere. */
export function packageFiles(root: string, pkg: WorkspacePackage): PackageFiles {
  const base = join(root, pkg.dir);
  const configs = readdirSync(base).filter((name) => vitestConfig.test(name)).map((name) => `${pkg.dir}/${name}`);
  const testFiles: string[] = [];
  walk(base, (path) => {
    const file = toPosix(relative(root, path));
    if (file === ownFixtures || file.startsWith(`${ownFixtures}/`)) return;
    if (!scriptFile.test(file) || file.endsWith('.d.ts')) return;
    const inPackage = file.slice(pkg.dir.length + 1);
    if (inPackage.startsWith('test/') || namedTestFile.test(inPackage)) testFiles.push(file);
  });
  return { configs: configs.sort(), testFiles: testFiles.sort() };
}

/** Whether `file` (relative to root) is, or is under, one of the paths given (relative to root). */
export function isUnder(file: string, paths: readonly string[]): boolean {
  return paths.some((path) => path === '' || path === '.' || file === path || file.startsWith(`${path.replace(/\/$/, '')}/`));
}

/** A path given on the command line, relative to the root (it must exist). */
export function rootRelative(root: string, path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  if (!existsSync(absolute)) throw new Error(`no such file or folder: ${path}`);
  return toPosix(relative(root, absolute));
}
