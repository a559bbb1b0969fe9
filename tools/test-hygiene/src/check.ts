import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkConfig } from './check-config.js';
import { checkTestFile } from './check-test-file.js';
import type { Problem } from './rules.js';
import { isUnder, packageFiles, workspacePackages, type WorkspacePackage } from './workspace.js';

export interface CheckOptions {
  /** Package names or folders (`@paykit/payments`, `payments`, `packages/payments`, `@paykit/file-*`); all when empty. */
  filters?: readonly string[];
  /** Files or folders relative to the root; everything when empty. */
  paths?: readonly string[];
}

export interface PackageReport extends WorkspacePackage {
  configs: number;
  testFiles: number;
  problems: Problem[];
}

export interface CheckReport {
  packages: PackageReport[];
  problems: Problem[];
}

const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);

/** Whether a package answers to a filter: its name, its name without the scope, or its folder (`*` matches anything). */
export function matchesFilter(pkg: WorkspacePackage, filter: string): boolean {
  const pattern = glob(filter.replace(/\/$/, ''));
  return [pkg.name, pkg.name.replace(/^@[^/]+\//, ''), pkg.dir].some((candidate) => pattern.test(candidate));
}

/** Runs every rule on the chosen packages of the workspace at `root`. */
export function checkWorkspace(root: string, options: CheckOptions = {}): CheckReport {
  const filters = options.filters ?? [];
  const paths = options.paths ?? [];
  const all = workspacePackages(root);
  const unmatched = filters.filter((filter) => !all.some((pkg) => matchesFilter(pkg, filter)));
  if (unmatched.length > 0) throw new Error(`no package matches ${unmatched.map((f) => JSON.stringify(f)).join(', ')}`);
  const chosen = all.filter(
    (pkg) =>
      (filters.length === 0 || filters.some((filter) => matchesFilter(pkg, filter))) &&
      (paths.length === 0 || paths.some((path) => isUnder(pkg.dir, [path]) || isUnder(path, [pkg.dir]))),
  );
  const packages = chosen.map((pkg): PackageReport => {
    const files = packageFiles(root, pkg);
    const configs = files.configs.filter((file) => paths.length === 0 || isUnder(file, paths));
    const testFiles = files.testFiles.filter((file) => paths.length === 0 || isUnder(file, paths));
    const read = (file: string) => readFileSync(join(root, file), 'utf8');
    const problems = [...configs.flatMap((file) => checkConfig(file, read(file))), ...testFiles.flatMap((file) => checkTestFile(file, read(file), join(root, file)))];
    return { ...pkg, configs: configs.length, testFiles: testFiles.length, problems };
  });
  return { packages, problems: packages.flatMap((pkg) => pkg.problems) };
}
