import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import type { PackageManifest } from './entry-points.js';
import { workspaceFolders } from './release.js';

interface WorkspacePackage {
  name: string;
  /** Folder inside the repository, e.g. `packages/payments`. */
  directory: string;
  /** The `exports` keys (`.`, `./core`...); undefined when the package has no `exports` map. */
  exportKeys?: string[];
  /**
   * Internal entries of other packages its build inlines from source (`paykit-bundle-internal --from-source SPEC=PATH`
   * in its `build` script, see tools/bundle-internal): its own files may import those, and only those, unexported.
   */
  fromSource: string[];
}

const sourceFile = /\.(?:[cm]?[jt]s|tsx)$/;
// Static and dynamic imports, re-exports and require calls: the specifier is the quoted string after them.
const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;

function workspacePackages(root: string): WorkspacePackage[] {
  return workspaceFolders(root)
    .filter((directory) => existsSync(join(root, directory, 'package.json')))
    .map((directory) => {
      const manifest = JSON.parse(readFileSync(join(root, directory, 'package.json'), 'utf8')) as PackageManifest;
      const exportKeys = manifest.exports === undefined ? undefined : Object.keys(manifest.exports);
      const build = (manifest.scripts as Record<string, string> | undefined)?.build ?? '';
      const fromSource = [...build.matchAll(/--from-source\s+([^\s=]+)=/g)].map((match) => match[1]!);
      return exportKeys === undefined ? { name: manifest.name, directory, fromSource } : { name: manifest.name, directory, exportKeys, fromSource };
    });
}

/** Whether `./sub` is one of `keys`, directly or through a `./dir/*` pattern. */
function exported(keys: string[], subpath: string): boolean {
  return keys.some((key) => key === subpath || (key.includes('*') && subpath.startsWith(key.slice(0, key.indexOf('*'))) && subpath.endsWith(key.slice(key.indexOf('*') + 1))));
}

/**
 * Imports in the workspace's source files (tracked and untracked, as git lists them) that reach into another
 * workspace package other than through an entry point it exports: a relative path out of the importing file's
 * package into another's folder, or `@scope/name/sub` where `./sub` is not in name's `exports` (any subpath, for a
 * package without an `exports` map), unless the importing package's build inlines that very specifier from source.
 * Each problem reads `file: specifier (why)`.
 */
export function crossPackageImportProblems(root: string): string[] {
  const packages = workspacePackages(root);
  const ownerOf = (path: string) =>
    packages
      .filter((pkg) => path === pkg.directory || path.startsWith(`${pkg.directory}/`))
      .sort((a, b) => b.directory.length - a.directory.length)[0];
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const problems: string[] = [];
  for (const file of listing.toString().split('\0')) {
    if (!sourceFile.test(file) || !existsSync(join(root, file))) continue;
    const owner = ownerOf(file);
    for (const [, , specifier] of readFileSync(join(root, file), 'utf8').matchAll(specifierPattern)) {
      if (specifier!.startsWith('.')) {
        const target = relative(root, normalize(join(root, dirname(file), specifier!))).split(sep).join('/');
        const targetOwner = ownerOf(target);
        if (targetOwner !== undefined && targetOwner !== owner) {
          problems.push(`${file}: ${specifier} (a path into ${targetOwner.name}; import it by name through an entry point it exports)`);
        }
        continue;
      }
      const imported = packages.find((pkg) => specifier === pkg.name || specifier!.startsWith(`${pkg.name}/`));
      if (imported === undefined || imported === owner || specifier === imported.name || owner?.fromSource.includes(specifier!)) continue;
      const subpath = `.${specifier!.slice(imported.name.length)}`;
      if (imported.exportKeys === undefined || !exported(imported.exportKeys, subpath)) {
        problems.push(`${file}: ${specifier} (${imported.name} exports no ${subpath})`);
      }
    }
  }
  return problems;
}
