import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnvironment, describeResult, run, type CommandResult } from './commands.js';

/** The repository this package lives in. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

/** The dist-tag and snapshot name of the test's releases: versions read `0.0.0-release-check-<timestamp>`. */
export const snapshotTag = 'release-check';

export interface PublicPackage {
  name: string;
  /** Folder inside the repository, e.g. `packages/payments`. */
  directory: string;
}

export interface PublishedPackage extends PublicPackage {
  version: string;
}

/** The folders pnpm-workspace.yaml names as packages (`dir/*` globs and plain folders). */
export function workspaceFolders(root: string): string[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const list = /^packages:\n((?:\s+-\s+.*\n)+)/m.exec(yaml)?.[1] ?? '';
  return [...list.matchAll(/-\s+['"]?([^'"\n]+?)['"]?\s*$/gm)].flatMap(([, pattern]) =>
    pattern!.endsWith('/*')
      ? readdirSync(join(root, pattern!.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern!.slice(0, -2)}/${entry.name}`)
      : [pattern!],
  );
}

/** Every workspace package that is not private: what `pnpm publish -r` publishes. */
export function publicPackages(root: string): PublicPackage[] {
  const found: PublicPackage[] = [];
  for (const directory of workspaceFolders(root)) {
    const path = join(root, directory, 'package.json');
    if (!existsSync(path)) continue;
    const { name, private: isPrivate } = JSON.parse(readFileSync(path, 'utf8')) as { name: string; private?: boolean };
    if (!isPrivate) found.push({ name, directory });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Copies the working tree as git sees it (tracked and untracked files, without what .gitignore leaves out: no
 * node_modules, dist or caches) to `target`. The release flow rewrites versions and changelogs, so it runs there.
 */
export async function copyWorkingTree(target: string): Promise<number> {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repositoryRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  let copied = 0;
  for (const path of listing.toString().split('\0')) {
    if (path === '') continue;
    const source = join(repositoryRoot, path);
    const info = await stat(source).catch(() => undefined);
    if (!info?.isFile()) continue; // deleted in the working tree
    await mkdir(dirname(join(target, path)), { recursive: true });
    await copyFile(source, join(target, path));
    copied++;
  }
  return copied;
}

export interface ReleaseSteps {
  install: CommandResult;
  version: CommandResult;
  release: CommandResult;
}

async function mustSucceed(label: string, result: Promise<CommandResult>): Promise<CommandResult> {
  const finished = await result;
  if (finished.code !== 0) throw new Error(describeResult(label, finished));
  return finished;
}

/**
 * The release flow of the README, in the copy at `root`: install, a changeset for every public package, snapshot
 * versions (`changeset version --snapshot`), then `pnpm release` (build, publint, attw, pack, `pnpm publish -r`)
 * to the registry at `registryUrl`.
 */
export async function releaseSnapshot(root: string, registryUrl: string, packages: PublicPackage[]): Promise<ReleaseSteps> {
  const env = cleanEnvironment();
  const install = await mustSucceed(
    'pnpm install',
    run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: root, env, timeoutMs: 300_000 }),
  );

  const changeset = ['---', ...packages.map((p) => `"${p.name}": patch`), '---', '', 'Release check snapshot.', ''];
  await writeFile(join(root, '.changeset', `${snapshotTag}.md`), changeset.join('\n'));
  const version = await mustSucceed(
    'changeset version --snapshot',
    run('pnpm', ['exec', 'changeset', 'version', '--snapshot', snapshotTag], { cwd: root, env, timeoutMs: 120_000 }),
  );

  // The registry takes any token for our scope, but npm clients only publish with one. The scoped registry line is
  // a safety net: were `--registry` ever lost on the way to `pnpm publish`, our packages still could not go to the
  // public registry.
  const host = registryUrl.replace(/^https?:/, '');
  await appendFile(join(root, '.npmrc'), `\n${host}:_authToken=release-check\n@paykit:registry=${registryUrl}\n`);
  const release = await mustSucceed(
    'pnpm release',
    run('pnpm', ['release', '--registry', registryUrl, '--tag', snapshotTag, '--no-git-checks'], {
      cwd: root,
      env,
      // Builds every package from a cold cache (the copy has no turbo cache); ten minutes and more on two busy cores.
      timeoutMs: 1_800_000,
    }),
  );
  return { install, version, release };
}

/** The version each package has after `changeset version`, read from the copy. */
export async function versionsIn(root: string, packages: PublicPackage[]): Promise<PublishedPackage[]> {
  return Promise.all(
    packages.map(async (p) => {
      const { version } = JSON.parse(await readFile(join(root, p.directory, 'package.json'), 'utf8')) as { version: string };
      return { ...p, version };
    }),
  );
}
