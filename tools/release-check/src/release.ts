import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
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
 * node_modules, dist or caches) to `target`, and makes the copy a git repository with every file staged, so that
 * turbo hashes its files exactly as it hashes the workspace's (without git it hashes them differently, and finds
 * nothing of the workspace's builds in its cache). The release flow rewrites versions and changelogs, so it runs there.
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
  execFileSync('git', ['init', '--quiet'], { cwd: target });
  execFileSync('git', ['add', '--all'], { cwd: target });
  return copied;
}

/**
 * The folder of the workspace's turbo cache: TURBO_CACHE_DIR when set, else `.turbo/cache` in the main working tree
 * (turbo shares one cache between a repository's worktrees).
 */
export function workspaceTurboCache(root: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.TURBO_CACHE_DIR) return resolve(root, env.TURBO_CACHE_DIR);
  const commonDir = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: root }).toString().trim();
  return join(dirname(commonDir), '.turbo', 'cache');
}

/** The root package.json's release script this check runs in two steps (see `releaseSnapshot`). */
export const releaseScript = 'turbo run release && pnpm publish -r';

export interface ReleaseSteps {
  install: CommandResult;
  build: CommandResult;
  /** How many of the build's turbo tasks came from the workspace's cache, of how many. */
  buildCache: { cached: number; total: number };
  version: CommandResult;
  /** `turbo run release --only`: publint, are-the-types-wrong and `pnpm pack` of every package. */
  release: CommandResult;
  publish: CommandResult;
}

async function mustSucceed(label: string, result: Promise<CommandResult>): Promise<CommandResult> {
  const finished = await result;
  if (finished.code !== 0) throw new Error(describeResult(label, finished));
  return finished;
}

/**
 * The release flow of the README, in the copy at `root`: install; a changeset for every public package; snapshot
 * versions (`changeset version --snapshot`); then `pnpm release` (build, publint, attw, pack, `pnpm publish -r`) to
 * the registry at `registryUrl`.
 *
 * The build is the workspace's: built by `pnpm test` before this check runs (turbo's `dependsOn`), it is replayed
 * into the copy from the workspace's turbo cache (read only) before the versions change, since the snapshot versions
 * change every package.json and so every build's hash. Nothing our builds emit depends on the version (contract-proxy
 * reads its own at run time). A build the cache does not hold is built in the copy. `pnpm release` then runs as its
 * two commands, turbo's with `--only` so that it does not build again.
 */
export async function releaseSnapshot(
  root: string,
  registryUrl: string,
  packages: PublicPackage[],
  options: { turboCache: string; caFile?: string },
): Promise<ReleaseSteps> {
  const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  if (scripts.release !== releaseScript) {
    throw new Error(`the root release script is now "${scripts.release}"; the release check runs "${releaseScript}": update releaseSnapshot`);
  }
  const env = cleanEnvironment();
  // The registry and certificate file npm uses, for anything pnpm has to fetch; the scoped registry line is a safety
  // net: were `--registry` ever lost on the way to `pnpm publish`, our packages still could not go to the public
  // registry. The local registry takes any token for our scope, but npm clients only publish with one.
  const host = registryUrl.replace(/^https?:/, '');
  const npmrc = [...(options.caFile ? [`cafile=${options.caFile}`] : []), `${host}:_authToken=release-check`, `@paykit:registry=${registryUrl}`];
  await appendFile(join(root, '.npmrc'), `\n${npmrc.join('\n')}\n`);

  const install = await mustSucceed(
    'pnpm install',
    run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: root, env, timeoutMs: 300_000 }),
  );
  const filters = packages.map((p) => `--filter=${p.name}`);
  const build = await mustSucceed(
    'turbo run build',
    run('pnpm', ['exec', 'turbo', 'run', 'build', ...filters, `--cache-dir=${options.turboCache}`, '--cache=local:r', '--output-logs=errors-only'], {
      cwd: root,
      env,
      // Replayed from the cache in a second or two; a cold build of every package took ten minutes on two busy cores.
      timeoutMs: 600_000,
    }),
  );

  const changeset = ['---', ...packages.map((p) => `"${p.name}": patch`), '---', '', 'Release check snapshot.', ''];
  await writeFile(join(root, '.changeset', `${snapshotTag}.md`), changeset.join('\n'));
  const version = await mustSucceed(
    'changeset version --snapshot',
    run('pnpm', ['exec', 'changeset', 'version', '--snapshot', snapshotTag], { cwd: root, env, timeoutMs: 120_000 }),
  );

  const release = await mustSucceed(
    'turbo run release --only',
    run('pnpm', ['exec', 'turbo', 'run', 'release', '--only', '--output-logs=errors-only'], { cwd: root, env, timeoutMs: 600_000 }),
  );
  const publish = await mustSucceed(
    'pnpm publish -r',
    run('pnpm', ['publish', '-r', '--registry', registryUrl, '--tag', snapshotTag, '--no-git-checks'], { cwd: root, env, timeoutMs: 300_000 }),
  );
  return { install, build, buildCache: turboCacheSummary(build.stdout), version, release, publish };
}

/** turbo's `Cached: 3 cached, 9 total` line, as numbers (none found: nothing cached). */
export function turboCacheSummary(output: string): { cached: number; total: number } {
  const match = /Cached:\s+(\d+) cached, (\d+) total/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
  return match ? { cached: Number(match[1]), total: Number(match[2]) } : { cached: 0, total: 0 };
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
