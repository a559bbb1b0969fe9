import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../src/browser-bundle.js';
import { cleanEnvironment, describeResult, killGroup, mapLimit, run } from '../src/commands.js';
import { entryPoints, shortName, type PackageManifest } from '../src/entry-points.js';
import { expectedProblems } from '../src/known-problems.js';
import {
  installInNewProject,
  installYarns,
  packageManagers,
  yarnCommand,
  yarnFlavours,
  type MerchantProject,
  type PackageManager,
  type YarnBins,
  type YarnFlavour,
} from '../src/merchant-project.js';
import {
  buildPathProblems,
  documentProblems,
  installedPackageDir,
  localDependencyProblems,
  manifestProblems,
  missingManifestFileProblems,
  packageFiles,
  sourceMapProblems,
  symlinkProblems,
  unpackedBytes,
  unresolvedImportProblems,
} from '../src/package-checks.js';
import { startRegistry, type LocalRegistry } from '../src/registry.js';
import {
  copyWorkingTree,
  publicPackages,
  releaseSnapshot,
  repositoryRoot,
  snapshotTag,
  versionsIn,
  type PublicPackage,
  type PublishedPackage,
  type ReleaseSteps,
} from '../src/release.js';
import { addSamples, moduleModes, sampleNames, typeCheck, type ModuleMode, type TypeCheck } from '../src/type-check.js';

/** Entries merchants load in browsers (by sample name): bundled for the browser, where a Node built-in is an error. */
const browserEntries: Record<string, string[]> = { '@paykit/payments': ['publishable'] };

const budgets = JSON.parse(readFileSync(fileURLToPath(new URL('../size-budgets.json', import.meta.url)), 'utf8')) as Record<
  string,
  { packedKiB: number; unpackedKiB: number }
>;
const importScript = fileURLToPath(new URL('../scripts/import-entries.mjs', import.meta.url));

// Known when the file is collected, so that every package and bin gets its own named tests.
const packages = publicPackages(repositoryRoot);
const workspaceManifest = (pkg: PublicPackage) =>
  JSON.parse(readFileSync(join(repositoryRoot, pkg.directory, 'package.json'), 'utf8')) as PackageManifest;

let work: string;
let copyRoot: string;
let registry: LocalRegistry | undefined;
let steps: ReleaseSteps;
let published: PublishedPackage[];
let projects: MerchantProject[];
let yarnProjects: MerchantProject[];
let yarnBins: YarnBins;
const typeChecks = new Map<string, TypeCheck>();
const report: string[] = [];
const started = Date.now();

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const publishedOf = (name: string) => published.find((p) => p.name === name)!;
const projectOf = (pm: PackageManager, name: string) =>
  [...projects, ...yarnProjects].find((p) => p.packageManager === pm && p.package.name === name)!;

/** Compares what a check found with what known-problems.ts expects of it (usually nothing). */
function expectKnown(check: string, problems: string[]): void {
  expect(problems, check).toEqual(expectedProblems(check));
}

beforeAll(async () => {
  // A few minutes of builds, installs and type checks, run beside the other packages' tests in `pnpm test`: at a
  // lower priority (inherited by everything started from here) it takes the CPU they leave instead of pushing their
  // servers past their start-up timeouts.
  setPriority(10);
  work = await realpath(await mkdtemp(join(tmpdir(), 'paykit-release-check-')));
  copyRoot = join(work, 'workspace');
  const copied = await copyWorkingTree(copyRoot);
  registry = await startRegistry(work);
  steps = await releaseSnapshot(copyRoot, registry.url, packages);
  published = await versionsIn(copyRoot, packages);
  report.push(
    `workspace copied (${copied} files) to ${copyRoot}; install ${seconds(steps.install.ms)}, ` +
      `changeset version ${seconds(steps.version.ms)}, pnpm release ${seconds(steps.release.ms)} to ${registry.url}`,
  );

  const pairs = published.flatMap((pkg) => packageManagers.map((pm) => [pm, pkg] as const));
  projects = await mapLimit(pairs, 2, ([pm, pkg]) => installInNewProject(join(work, 'projects'), pm, pkg, registry!.url));
  for (const project of projects) {
    if (project.install.code !== 0) {
      throw new Error(describeResult(`${project.packageManager} install ${project.package.name}`, project.install));
    }
    await addSamples(project.dir, shortName(project.package.name));
    await copyFile(importScript, join(project.dir, 'import-entries.mjs'));
  }
  report.push(
    `projects installed: ${projects.map((p) => `${p.packageManager} ${p.package.name} ${seconds(p.install.ms)}`).join(', ')}`,
  );

  // Yarn 1 and Yarn 4 (both linkers): each installs every package as a merchant would, without a flag. An install
  // that fails is a test's finding (below), not the end of the run.
  yarnBins = await installYarns(join(work, 'yarn'));
  const yarnPairs = published.flatMap((pkg) => yarnFlavours.map((flavour) => [flavour, pkg] as const));
  yarnProjects = await mapLimit(yarnPairs, 2, ([flavour, pkg]) => installInNewProject(join(work, 'projects'), flavour, pkg, registry!.url, yarnBins));
  for (const project of yarnProjects) await copyFile(importScript, join(project.dir, 'import-entries.mjs'));
  report.push(`yarn projects installed: ${yarnProjects.map((p) => `${p.packageManager} ${p.package.name} ${seconds(p.install.ms)} (exit ${p.install.code})`).join(', ')}`);

  const checks = projects.flatMap((project) => moduleModes.map((mode) => [project, mode] as const));
  const typeCheckStart = Date.now();
  await mapLimit(checks, 2, async ([project, mode]) => {
    typeChecks.set(`${project.dir} ${mode}`, await typeCheck(project.dir, mode));
  });
  report.push(`type checks: ${checks.length} tsc runs in ${seconds(Date.now() - typeCheckStart)}`);
});

afterAll(async () => {
  await registry?.close();
  report.push(`release check finished in ${seconds(Date.now() - started)}`);
  console.log(report.join('\n'));
  if (work !== undefined && process.env.PAYKIT_RELEASE_CHECK_KEEP === undefined) await rm(work, { recursive: true, force: true });
});

describe('the release flow', () => {
  it('publishes every public package at its snapshot version, to the given registry only', async () => {
    const destinations = [...steps.release.stdout.matchAll(/📦 (\S+) → (\S+)/g)].map(([, spec, url]) => `${spec} ${url}`);
    expect(destinations.sort()).toEqual(published.map((p) => `${p.name}@${p.version} ${registry!.url}`).sort());
    for (const pkg of published) {
      expect(pkg.version).toMatch(new RegExp(`^\\d+\\.\\d+\\.\\d+-${snapshotTag}-\\d{14}$`));
      const packument = (await (await fetch(new URL(pkg.name.replace('/', '%2f'), registry!.url))).json()) as {
        'dist-tags': Record<string, string>;
        versions: Record<string, unknown>;
      };
      expect(Object.keys(packument.versions)).toEqual([pkg.version]);
      expect(packument['dist-tags'][snapshotTag]).toBe(pkg.version);
    }
    report.push(`published: ${published.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  });
});

describe.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s', (_, pkg) => {
  const manifest = workspaceManifest(pkg);
  const bins = Object.keys(manifest.bin ?? {});
  const installed = async (pm: PackageManager = 'npm') => {
    const dir = await installedPackageDir(projectOf(pm, pkg.name).dir, pkg.name);
    const files = await packageFiles(dir);
    const shipped = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
    return { dir, files, shipped };
  };

  it('ships README, LICENSE, CHANGELOG and the metadata merchants read', async () => {
    const { dir, shipped } = await installed();
    expectKnown(`metadata ${pkg.name}`, [
      ...manifestProblems(shipped, pkg.directory),
      ...(await documentProblems(dir, publishedOf(pkg.name).version)),
    ]);
  });

  it('ships every file its package.json, its imports and its source maps refer to', async () => {
    const { dir, files, shipped } = await installed();
    expectKnown(`files ${pkg.name}`, [
      ...missingManifestFileProblems(shipped, files),
      ...(await unresolvedImportProblems(dir, files)),
      ...(await sourceMapProblems(dir, files)),
    ]);
  });

  it('stays within its size budget', async () => {
    const { dir, files } = await installed();
    const { version } = publishedOf(pkg.name);
    const short = shortName(pkg.name);
    const tarball = join(registry!.storage, '@paykit', short, `${short}-${version}.tgz`);
    const packed = kib((await stat(tarball)).size);
    const unpacked = kib(await unpackedBytes(dir, files));
    const budget = budgets[pkg.name];
    report.push(
      `size ${pkg.name}: packed ${packed} KiB (budget ${budget?.packedKiB}), unpacked ${unpacked} KiB ` +
        `(budget ${budget?.unpackedKiB}), ${files.length} files`,
    );
    expect(budget, `no budget for ${pkg.name} in size-budgets.json`).toBeDefined();
    expect(packed).toBeLessThanOrEqual(budget!.packedKiB);
    expect(unpacked).toBeLessThanOrEqual(budget!.unpackedKiB);
  });

  describe.each(packageManagers)('installed with %s', (pm) => {
    it('installs from the registry, with nothing pointing back into the workspace', async () => {
      const project = projectOf(pm, pkg.name);
      const { dir, files, shipped } = await installed(pm);
      const problems = [...localDependencyProblems(shipped), ...(await symlinkProblems(project.dir, [repositoryRoot, copyRoot]))];
      problems.push(...(await buildPathProblems(dir, files, [repositoryRoot, copyRoot])));
      const lock = await readFile(join(project.dir, pm === 'npm' ? 'package-lock.json' : 'pnpm-lock.yaml'), 'utf8');
      if (/(?<![\w-])(workspace|link|file):(?!\s)/.test(lock)) problems.push('the lockfile has a workspace:, link: or file: dependency');
      expectKnown(`install ${pkg.name}`, problems);
    });

    it('imports every entry point as an ES module', async () => {
      const project = projectOf(pm, pkg.name);
      const entries = entryPoints((await installed(pm)).shipped);
      const result = await run(process.execPath, ['import-entries.mjs', JSON.stringify(entries)], {
        cwd: project.dir,
        env: cleanEnvironment(),
        timeoutMs: 60_000,
      });
      expect(result.code, describeResult('import-entries.mjs', result)).toBe(0);
      const results = JSON.parse(result.stdout.trim().split('\n').pop()!) as { specifier: string; ok: boolean; detail: string }[];
      expect(results.map((r) => r.specifier)).toEqual(entries.map((e) => e.specifier));
      report.push(`${pm} ${pkg.name} entries: ${results.map((r) => `${r.specifier} (${r.detail})`).join(', ')}`);
      expectKnown(`imports ${pkg.name}`, results.filter((r) => !r.ok).map((r) => `${r.specifier}: ${r.detail}`));
    });

    it.each(moduleModes)('type-checks a sample of every entry under %s, strict, without @types of its own', async (mode: ModuleMode) => {
      const project = projectOf(pm, pkg.name);
      const modules = entryPoints((await installed(pm)).shipped).filter((e) => e.kind === 'module');
      const folder = `samples/${shortName(pkg.name)}`;
      const samples = await sampleNames(shortName(pkg.name));
      const coverage = [
        ...modules
          .filter((e) => !samples.includes(e.sampleName))
          .map((e) => `no sample for ${e.specifier}: add ${folder}/${e.sampleName}.ts`),
        ...samples.filter((s) => !modules.some((e) => e.sampleName === s)).map((s) => `${folder}/${s}.ts matches no entry point`),
      ];
      expect(coverage).toEqual([]);
      const check = typeChecks.get(`${project.dir} ${mode}`)!;
      if (check.result.code !== 0 && check.diagnostics.length === 0) throw new Error(describeResult('tsc', check.result));
      expectKnown(`types ${pkg.name}`, check.diagnostics);
    });

    for (const sample of browserEntries[pkg.name] ?? []) {
      it(`bundles ${sample} for the browser without Node built-ins`, async () => {
        const project = projectOf(pm, pkg.name);
        const bundle = await bundleForBrowser(project.dir, `samples/${sample}.ts`);
        report.push(`${pm} ${pkg.name} ${sample} browser bundle: ${kib(bundle.bytes)} KiB minified, ${kib(bundle.gzipBytes)} KiB gzip`);
        expectKnown(`browser ${pkg.name}/${sample}`, bundle.problems);
        // Bundled from the installed package, not from anything nearer.
        expect(bundle.inputs.some((input) => /node_modules\/(\.pnpm\/.*\/)?@paykit\//.test(input))).toBe(true);
      });
    }

    for (const bin of bins) {
      it(`runs ${bin} --help through npx`, async () => {
        const project = projectOf(pm, pkg.name);
        // --no: never download a package of that name; `--` so that --help goes to the bin, not to npx.
        const result = await run('npx', ['--no', '--', bin, '--help'], { cwd: project.dir, env: cleanEnvironment(), timeoutMs: 60_000 });
        expect(result.code, describeResult(`npx ${bin} --help`, result)).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^usage: ${bin}\\b`));
      });
    }

    if (bins.includes('paykit-mock')) {
      it('starts paykit-mock, whose payments mock answers with an example of its contract, and stops it', async () => {
        const project = projectOf(pm, pkg.name);
        const mockDir = await installedPackageDir(project.dir, pkg.name);
        const answer = await withRunningMock(project.dir, ['npx', ['--no', '--', 'paykit-mock', 'payments', '--port-payments', '0']], async (baseUrl) => {
          const response = await fetch(`${baseUrl}/transactions/1`, {
            headers: { authorization: `Basic ${Buffer.from('release-check:').toString('base64')}` },
          });
          return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
        });
        expect(answer.status).toBe(200);
        expect(answer.type).toMatch(/^application\/json/);
        expect(contractExamples(join(mockDir, 'dist', 'specs', 'payments.json'), '/rest/v1/transactions/1')).toContainEqual(answer.body);
      });
    }
  });

  describe.each(yarnFlavours)('installed with %s', (flavour: YarnFlavour) => {
    const yarn = (args: string[]) => yarnCommand(yarnBins, flavour, args);

    it('installs from the registry without flags', () => {
      const project = projectOf(flavour, pkg.name);
      expect(project.install.code, describeResult(`${flavour} add ${pkg.name}`, project.install)).toBe(0);
    });

    it('imports every entry point as an ES module (yarn node)', async () => {
      const project = projectOf(flavour, pkg.name);
      const entries = entryPoints(manifest);
      const [command, args] = yarn(['node', 'import-entries.mjs', JSON.stringify(entries)]);
      const result = await run(command, args, { cwd: project.dir, env: cleanEnvironment(), timeoutMs: 120_000 });
      expect(result.code, describeResult(`${flavour} node import-entries.mjs`, result)).toBe(0);
      // Yarn 1 wraps the script's output in its own lines (`yarn node v1.22.22`, `Done in 0.25s.`).
      const line = result.stdout.split('\n').findLast((text) => text.startsWith('['));
      expect(line, describeResult(`${flavour} node import-entries.mjs`, result)).toBeDefined();
      const results = JSON.parse(line!) as { specifier: string; ok: boolean; detail: string }[];
      expect(results.map((r) => r.specifier)).toEqual(entries.map((e) => e.specifier));
      report.push(`${flavour} ${pkg.name} entries: ${results.map((r) => `${r.specifier} (${r.detail})`).join(', ')}`);
      expectKnown(`imports ${pkg.name}`, results.filter((r) => !r.ok).map((r) => `${r.specifier}: ${r.detail}`));
    });

    for (const bin of bins) {
      it(`runs ${bin} --help through yarn`, async () => {
        const [command, args] = yarn([bin, '--help']);
        const result = await run(command, args, { cwd: projectOf(flavour, pkg.name).dir, env: cleanEnvironment(), timeoutMs: 60_000 });
        expect(result.code, describeResult(`${flavour} ${bin} --help`, result)).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`usage: ${bin}\\b`));
      });
    }

    if (bins.includes('paykit-mock')) {
      it('starts paykit-mock, whose Prism answers with an example of its contract, and stops it', async () => {
        const project = projectOf(flavour, pkg.name);
        const answer = await withRunningMock(project.dir, yarn(['paykit-mock', 'payments', '--port-payments', '0']), async (baseUrl) => {
          const response = await fetch(`${baseUrl}/transactions/1`, {
            headers: { authorization: `Basic ${Buffer.from('release-check:').toString('base64')}` },
          });
          return { status: response.status, type: response.headers.get('content-type') };
        });
        expect(answer.status).toBe(200);
        expect(answer.type).toMatch(/^application\/json/);
      });
    }
  });
});

/** Runs `paykit-mock payments` on a free port in `cwd` (by `command`), hands `use` its base address, then stops the whole group. */
async function withRunningMock<T>(cwd: string, [command, args]: [string, string[]], use: (baseUrl: string) => Promise<T>): Promise<T> {
  const child = spawn(command, args, {
    cwd,
    env: cleanEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`paykit-mock not ready after 60 s:\n${output}`)), 60_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /payments mock: (\S+)/.exec(output)?.[1];
        if (url !== undefined && output.includes('mocks ready')) {
          clearTimeout(timer);
          resolve(url);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`paykit-mock exited (code ${code}):\n${output}`)));
    });
    return await use(baseUrl);
  } finally {
    killGroup(child.pid);
    await waitForGroupExit(child.pid);
  }
}

async function waitForGroupExit(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 100 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) {
    killGroup(pid, 'SIGKILL');
    throw new Error('paykit-mock (or the Prism it started) did not stop within 10 s of SIGTERM');
  }
}

/** The example bodies the contract gives for a 200 to GET `path`, from the spec the mock package ships. */
function contractExamples(specPath: string, path: string): unknown[] {
  type Example = { value?: unknown; $ref?: string };
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as {
    paths: Record<string, { get?: { responses?: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }> } }>;
    components?: { examples?: Record<string, Example> };
  };
  const template = Object.keys(spec.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  const examples = Object.values(spec.paths[template ?? '']?.get?.responses?.['200']?.content?.['application/json']?.examples ?? {});
  return examples.map((example) => (example.$ref ? spec.components?.examples?.[example.$ref.split('/').pop()!]?.value : example.value));
}
