// The release flow's helpers, and the turbo task that runs the release check: its build dependencies name every
// public package, its inputs every file a package ships beside its build.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { limiter, waitFor } from '../src/commands.js';
import { publicPackages, releaseScript, repositoryRoot, turboCacheSummary, workspaceTurboCache } from '../src/release.js';
import { typeCheckGroups } from '../src/type-check.js';

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'paykit-release-flow-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the release flow', () => {
  it('runs the root release script as the check knows it', () => {
    const { scripts } = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.release).toBe(releaseScript);
  });

  it.each([
    ['a full replay', ' Tasks:    16 successful, 16 total\nCached:    16 cached, 16 total\n  Time:    208ms >>> FULL TURBO\n', { cached: 16, total: 16 }],
    ['colours and a partial replay', '\x1b[1mCached:\x1b[0m    3 cached, 9 total\n', { cached: 3, total: 9 }],
    ['no summary', 'turbo crashed\n', { cached: 0, total: 0 }],
  ])("reads turbo's cache summary: %s", (_, output, expected) => {
    expect(turboCacheSummary(output)).toEqual(expected);
  });

  it("finds the workspace's turbo cache in the main working tree, from a worktree too, or where TURBO_CACHE_DIR says", () => {
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@example.invalid', ...args], { cwd, stdio: 'ignore' });
    const main = join(dir, 'main');
    git(dir, 'init', '--quiet', main);
    git(main, 'commit', '--quiet', '--allow-empty', '-m', 'x');
    git(main, 'worktree', 'add', '--quiet', join(dir, 'linked'));
    expect(workspaceTurboCache(main, {})).toBe(join(main, '.turbo', 'cache'));
    expect(workspaceTurboCache(join(dir, 'linked'), {})).toBe(join(main, '.turbo', 'cache'));
    expect(workspaceTurboCache(main, { TURBO_CACHE_DIR: 'elsewhere/cache' })).toBe(join(main, 'elsewhere', 'cache'));
  });
});

describe('typeCheckGroups', () => {
  it('checks together only the packages that bring the same ambient types', () => {
    const manifest = (name: string, fields: Record<string, Record<string, string>>) => ({ name, version: '1.0.0', ...fields });
    expect(
      typeCheckGroups([
        manifest('@x/browser', { dependencies: { 'openapi-fetch': '1' } }),
        manifest('@x/server', { peerDependencies: { '@types/node': '>=20' } }),
        manifest('@x/cli', { dependencies: { '@x/server': '1', '@types/node': '20' } }),
        manifest('@x/db', { dependencies: { pg: '8' }, peerDependencies: { '@types/node': '*' }, optionalDependencies: { '@types/pg': '8' } }),
      ]),
    ).toEqual([
      { name: 'no-types', packages: ['@x/browser'] },
      { name: 'types-node', packages: ['@x/cli', '@x/server'] },
      { name: 'types-node+types-pg', packages: ['@x/db'] },
    ]);
  });
});

describe('the turbo task of the release check', () => {
  const turbo = JSON.parse(readFileSync(fileURLToPath(new URL('../turbo.json', import.meta.url)), 'utf8')) as {
    tasks: Record<string, { dependsOn: string[]; inputs: string[] }>;
  };
  const packages = publicPackages(repositoryRoot).map((pkg) => ({
    ...pkg,
    files: (JSON.parse(readFileSync(join(repositoryRoot, pkg.directory, 'package.json'), 'utf8')) as { files: string[] }).files,
  }));

  it('waits for the build of every public package', () => {
    expect(turbo.tasks.test!.dependsOn.filter((task) => task.endsWith('#build')).sort()).toEqual(packages.map((p) => `${p.name}#build`).sort());
  });

  // What `files` leaves out of dist (`!dist/...`) is part of the build too.
  it('reruns when anything a package ships changes: the build (through its hash) and every other file', () => {
    const { inputs } = turbo.tasks.test!;
    const uncovered = packages.flatMap((pkg) =>
      // `dist` is covered by the build's hash; an exclusion (`!dist/specs`) ships nothing.
      ['package.json', ...pkg.files.filter((entry) => entry !== 'dist' && !entry.startsWith('!'))]
        .filter((entry) => !inputs.some((input) => [entry, `${entry}/**`].some((e) => input === `$TURBO_ROOT$/${dirname(pkg.directory)}/*/${e}`)))
        .map((entry) => `${pkg.directory}/${entry}`),
    );
    expect(uncovered).toEqual([]);
  });

  it('leaves out the docs and the workspace-imports test, which has its own task', () => {
    expect(turbo.tasks.test!.inputs).not.toContain('README.md');
    expect(turbo.tasks.test!.inputs).toContain('!test/workspace-imports.test.ts');
    expect(turbo.tasks.test!.dependsOn).toContain('test:workspace-imports');
  });
});

describe('limiter', () => {
  it('runs at most its number of slots at once, the waiting ones in the order they asked', async () => {
    const slot = limiter(2);
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    const work = (n: number) =>
      slot(async () => {
        started.push(n);
        await new Promise<void>((resolve) => finish.set(n, resolve));
        return n;
      });
    const results = [1, 2, 3, 4].map(work);
    await vi.waitFor(() => expect(started).toEqual([1, 2]));
    finish.get(2)!();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
    finish.get(1)!();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3, 4]));
    finish.get(3)!();
    finish.get(4)!();
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4]);
  });
});

describe('waitFor', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends when the condition holds, and fails naming what it waited for once the time is up', async () => {
    vi.useFakeTimers();
    let ready = false;
    const waiting = waitFor(() => ready, { what: 'the registry answering', timeoutMs: 1_000, intervalMs: 100 });
    await vi.advanceTimersByTimeAsync(500);
    ready = true;
    await vi.advanceTimersByTimeAsync(100);
    await expect(waiting).resolves.toBeUndefined();

    const never = waitFor(() => false, { what: 'the registry answering', timeoutMs: 1_000, intervalMs: 100 });
    const failed = expect(never).rejects.toThrow('the registry answering: not within 1 s');
    await vi.advanceTimersByTimeAsync(1_100);
    await failed;
  });
});
