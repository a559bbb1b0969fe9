// end-to-end: releases every package to a real local registry (Verdaccio) through the release flow, then installs
// them all with npm, pnpm, Yarn 1 and Yarn 4 (both linkers), type-checks, imports, runs the bins and the mock: about
// one to three minutes of installs, type checks and processes on two busy cores. Its own timeouts are below.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The file's own time bounds, first so that they are read with its reason (the imports below are hoisted anyway).
/** The release, from the copy to the last publish: seconds from the workspace's build cache, minutes without it. */
const releaseTimeoutMs = 900_000;
/** Waiting for one merchant project's install (and, for npm and pnpm, its type checks), which share two slots. */
const projectTimeoutMs = 600_000;
// A test runs one command, or starts and stops the mock, in a project already installed.
vi.setConfig({ testTimeout: 60_000 });

import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '../src/browser-bundle.js';
import { cleanEnvironment, describeResult, limiter, run } from '../src/commands.js';
import { entryPoints, shortName, type EntryPoint, type PackageManifest } from '../src/entry-points.js';
import {
  installProject,
  merchantNodeTypes,
  nodeModulesCheckedManagers,
  packageManagers,
  projectCommand,
  publicRegistry,
  type MerchantProject,
  type PackageManager,
  type PublicRegistry,
} from '../src/merchant-project.js';
import {
  buildPathProblems,
  documentProblems,
  installedPackageDir,
  installedVersions,
  localDependencyProblems,
  manifestProblems,
  missingManifestFileProblems,
  packageFiles,
  sourceMapProblems,
  symlinkProblems,
  undeclaredImportProblems,
  unpackedBytes,
  unresolvedImportProblems,
} from '../src/package-checks.js';
import {
  declarationFiles,
  declaredNames,
  expectedSurfacesName,
  listProblems,
  readExpectedSurfaces,
  readmeSurface,
  surfaceOf,
  surfaceProblems,
  undeclaredValues,
} from '../src/public-surface.js';
import { startRegistry, type LocalRegistry } from '../src/registry.js';
import {
  copyWorkingTree,
  publicPackages,
  releaseSnapshot,
  repositoryRoot,
  snapshotTag,
  versionsIn,
  workspaceTurboCache,
  type PublicPackage,
  type PublishedPackage,
  type ReleaseSteps,
} from '../src/release.js';
import { contractExamples, withRunningMock } from '../src/running-mock.js';
import { addSamples, moduleModes, sampleNames, typeCheck, typeCheckGroups, type TypeCheck } from '../src/type-check.js';

/** Entries merchants load in browsers (by sample name): bundled for the browser, where a Node built-in is an error. */
const browserEntries: Record<string, string[]> = { '@paykit/payments': ['publishable'] };

const budgets = JSON.parse(readFileSync(fileURLToPath(new URL('../size-budgets.json', import.meta.url)), 'utf8')) as Record<
  string,
  { packedKiB: number; unpackedKiB: number }
>;
const importScript = fileURLToPath(new URL('../scripts/import-entries.mjs', import.meta.url));
/** Every entry point and exported name of each package, as written down on purpose (see src/public-surface.ts). */
const expectedSurfaces = readExpectedSurfaces();

// Known when the file is collected, so that every package, project and bin gets its own named tests.
const packages = publicPackages(repositoryRoot);
const workspaceManifest = (pkg: PublicPackage) =>
  JSON.parse(readFileSync(join(repositoryRoot, pkg.directory, 'package.json'), 'utf8')) as PackageManifest;
const bins = packages.flatMap((pkg) => Object.keys(workspaceManifest(pkg).bin ?? {}));
const groups = typeCheckGroups(packages.map(workspaceManifest));
/** One type check per module setting and group of packages (see typeCheckGroups). */
const typeChecksToRun = moduleModes.flatMap((mode) => groups.map((group) => ({ mode, group, key: `${mode} ${group.name}` })));

interface ImportResult {
  specifier: string;
  ok: boolean;
  detail: string;
  /** The names a module exports, sorted. */
  names?: string[];
}

/** A merchant project once its install finished, with what runs in it once for all packages. */
interface ProjectSetup {
  project: MerchantProject;
  /** `tsc` per module setting and group (by `typeChecksToRun`'s key), for the projects whose node_modules tsc reads. */
  typeChecks?: Promise<Map<string, TypeCheck>>;
}

let work: string;
let copyRoot: string;
let registry: LocalRegistry | undefined;
let upstream: PublicRegistry;
let steps: ReleaseSteps;
let published: PublishedPackage[];
/** Every entry point of every package, from the manifests as released. */
let entries: (EntryPoint & { packageName: string })[];
const setups = new Map<PackageManager, Promise<ProjectSetup>>();
const report: string[] = [];
const started = Date.now();

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const publishedOf = (name: string) => published.find((p) => p.name === name)!;

let declared: Promise<Map<string, Map<string, string[]>>> | undefined;
/**
 * The names each module entry's declarations export (by package, then `exports` key), read by the TypeScript
 * compiler from the packages installed in the npm project: the same tarballs every project installs. One program
 * for every package, made once.
 */
function declaredNamesOfPackages(): Promise<Map<string, Map<string, string[]>>> {
  return (declared ??= installedProject('npm').then(async ({ project }) => {
    const files = new Map<string, Map<string, string>>();
    for (const pkg of packages) {
      const dir = await installedPackageDir(project.dir, pkg.name);
      files.set(pkg.name, declarationFiles(dir, JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest));
    }
    const at = Date.now();
    const byFile = declaredNames([...files.values()].flatMap((entries) => [...entries.values()]));
    report.push(`declared names of ${packages.length} packages read by tsc in ${seconds(Date.now() - at)}`);
    return new Map([...files].map(([name, entries]) => [name, new Map([...entries].map(([key, file]) => [key, byFile.get(file) ?? []]))]));
  }));
}

/** A check passes when it finds nothing: what it found is the failure's message, under the check's name. */
function expectNoProblems(check: string, problems: string[]): void {
  expect(problems, check).toEqual([]);
}

/** The project of `pm`, failing with its install's output when the install failed. */
async function installedProject(pm: PackageManager): Promise<ProjectSetup> {
  const setup = await setups.get(pm)!;
  if (setup.project.install.code !== 0) throw new Error(describeResult(`${pm} install`, setup.project.install));
  return setup;
}

beforeAll(async () => {
  // A few minutes of installs and type checks, run beside the other packages' tests in `pnpm test`: at a lower
  // priority (inherited by everything started from here) it takes the CPU they leave instead of pushing their
  // servers past their start-up timeouts.
  setPriority(10);
  work = await realpath(await mkdtemp(join(tmpdir(), 'paykit-release-check-')));
  copyRoot = join(work, 'workspace');
  // Read once, from a folder with no project configuration, and given to every install (see publicRegistry).
  upstream = await publicRegistry(work);
  let at = Date.now();
  const copied = await copyWorkingTree(copyRoot);
  report.push(`workspace copied (${copied} files) to ${copyRoot} in ${seconds(Date.now() - at)}; third-party packages from ${upstream.url} (cafile ${upstream.caFile ?? 'none'})`);
  registry = await startRegistry(work);
  steps = await releaseSnapshot(copyRoot, registry.url, packages, { turboCache: workspaceTurboCache(repositoryRoot), caFile: upstream.caFile });
  published = await versionsIn(copyRoot, packages);
  report.push(
    `release to ${registry.url}: install ${seconds(steps.install.ms)}, build ${seconds(steps.build.ms)} ` +
      `(${steps.buildCache.cached} of ${steps.buildCache.total} turbo tasks from the workspace's cache), ` +
      `changeset version ${seconds(steps.version.ms)}, turbo run release ${seconds(steps.release.ms)}, pnpm publish ${seconds(steps.publish.ms)}`,
  );
  entries = packages.flatMap((pkg) => {
    const manifest = JSON.parse(readFileSync(join(copyRoot, pkg.directory, 'package.json'), 'utf8')) as PackageManifest;
    return entryPoints(manifest).map((entry) => ({ ...entry, packageName: pkg.name }));
  });

  // Every project installs every package at once; two installs or type checks run at a time (two cores). Each
  // project's tests wait for their own project only, and an install that fails is that project's finding.
  at = Date.now();
  const slot = limiter(2);
  for (const pm of packageManagers) {
    const setup = slot(() => installProject(join(work, 'projects'), pm, published, registry!.url, upstream)).then(async (project): Promise<ProjectSetup> => {
      report.push(`${pm} project installed every package in ${seconds(project.install.ms)} (exit ${project.install.code}, ${seconds(Date.now() - at)} after the release)`);
      if (project.install.code !== 0) return { project };
      await copyFile(importScript, join(project.dir, 'import-entries.mjs'));
      if (!nodeModulesCheckedManagers.includes(pm)) return { project };
      await addSamples(project.dir, packages.map((p) => shortName(p.name)));
      const typeChecks = Promise.all(
        typeChecksToRun.map(async ({ mode, group, key }) => [key, await slot(() => typeCheck(project.dir, mode, group))] as const),
      ).then((checks) => {
        report.push(`${pm} type checks: ${checks.map(([key, check]) => `${key} ${seconds(check.result.ms)}`).join(', ')}`);
        return new Map(checks);
      });
      typeChecks.catch(() => undefined); // awaited by the type-check tests, which report the failure
      return { project, typeChecks };
    });
    setup.catch(() => undefined); // awaited by that project's tests, which report the failure
    setups.set(pm, setup);
  }
}, releaseTimeoutMs);

afterAll(async () => {
  // Nothing may still be writing into the folder it removes.
  await Promise.allSettled([...setups.values()].map((setup) => setup.then((s) => s.typeChecks)));
  await registry?.close();
  report.push(`release check finished in ${seconds(Date.now() - started)}`);
  console.log(report.join('\n'));
  if (work !== undefined && process.env.PAYKIT_RELEASE_CHECK_KEEP === undefined) await rm(work, { recursive: true, force: true });
}, projectTimeoutMs);

describe('the release flow', () => {
  it('publishes every public package at its snapshot version, to the given registry only', async () => {
    const destinations = [...steps.publish.stdout.matchAll(/📦 (\S+) → (\S+)/g)].map(([, spec, url]) => `${spec} ${url}`);
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

// What a package ships is the same tarball in every project: read from the npm project.
describe.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s as shipped', (_, pkg) => {
  let dir: string;
  let files: string[];
  let shipped: PackageManifest;
  beforeAll(async () => {
    const { project } = await installedProject('npm');
    dir = await installedPackageDir(project.dir, pkg.name);
    files = await packageFiles(dir);
    shipped = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
  }, projectTimeoutMs);

  it('ships README, LICENSE, CHANGELOG and the metadata merchants read', async () => {
    expectNoProblems(`metadata ${pkg.name}`, [...manifestProblems(shipped, pkg.directory), ...(await documentProblems(dir, publishedOf(pkg.name).version))]);
  });

  it('ships every file its package.json, its imports and its source maps refer to', async () => {
    expectNoProblems(`files ${pkg.name}`, [
      ...missingManifestFileProblems(shipped, files),
      ...(await unresolvedImportProblems(dir, files)),
      ...(await sourceMapProblems(dir, files)),
    ]);
  });

  it('declares every package its modules import', async () => {
    expectNoProblems(`dependencies ${pkg.name}`, await undeclaredImportProblems(dir, files, shipped));
  });

  it(`lists its entry points and names in its README as packed ("## Entry points") as ${expectedSurfacesName} does`, async () => {
    const readme = readmeSurface(pkg.name, await readFile(join(dir, 'README.md'), 'utf8'));
    expect(listProblems(pkg.name, readme, expectedSurfaces[pkg.name])).toEqual([]);
  });

  it('has a type-checked sample for every JavaScript entry point, and no sample of an entry it lacks', async () => {
    const modules = entryPoints(shipped).filter((e) => e.kind === 'module');
    const folder = `samples/${shortName(pkg.name)}`;
    const samples = await sampleNames(shortName(pkg.name));
    expect([
      ...modules.filter((e) => !samples.includes(e.sampleName)).map((e) => `no sample for ${e.specifier}: add ${folder}/${e.sampleName}.ts`),
      ...samples.filter((s) => !modules.some((e) => e.sampleName === s)).map((s) => `${folder}/${s}.ts matches no entry point`),
    ]).toEqual([]);
  });

  it('stays within its size budget', async () => {
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
});

describe.each(packageManagers)('a %s project with every package', (pm) => {
  const usesNodeModules = nodeModulesCheckedManagers.includes(pm);
  let setup: ProjectSetup;
  let imports: Promise<ImportResult[]> | undefined;
  beforeAll(async () => {
    setup = await setups.get(pm)!;
  }, projectTimeoutMs);
  const project = () => installedProject(pm).then((s) => s.project);

  /** import-entries.mjs, run once in the project for every entry point of every package. */
  const importResults = () =>
    (imports ??= project().then(async ({ dir }) => {
      const [command, args] = projectCommand(pm, 'node', ['import-entries.mjs', JSON.stringify(entries.map(({ specifier, kind }) => ({ specifier, kind })))]);
      const result = await run(command, args, { cwd: dir, env: cleanEnvironment(), timeoutMs: 120_000 });
      if (result.code !== 0) throw new Error(describeResult(`${pm} node import-entries.mjs`, result));
      // Yarn 1 wraps the script's output in its own lines (`yarn node v1.22.22`, `Done in 0.25s.`).
      const line = result.stdout.split('\n').findLast((text) => text.startsWith('['));
      if (line === undefined) throw new Error(describeResult(`${pm} node import-entries.mjs printed no results`, result));
      report.push(`${pm} imported ${entries.length} entry points in ${seconds(result.ms)}`);
      return JSON.parse(line) as ImportResult[];
    }));

  it(`installs every package from the registry${pm.startsWith('yarn') ? ', without flags' : ''}`, () => {
    expect(setup.project.install.code, describeResult(`${pm} install`, setup.project.install)).toBe(0);
  });

  it.runIf(usesNodeModules)("installs no @types/node beside the merchant's own (our peers on it are optional)", async () => {
    const { dir, virtualStoreDir } = await project();
    const folders = [join(dir, 'node_modules'), ...(virtualStoreDir === undefined ? [] : [virtualStoreDir])];
    expect(await installedVersions(folders, '@types/node')).toEqual([merchantNodeTypes]);
  });

  it.each(packages.map((pkg) => [pkg.name, pkg] as const))('imports every entry point of %s as an ES module', async (name) => {
    const results = await importResults();
    const expected = entries.filter((e) => e.packageName === name);
    const own = results.filter((r) => expected.some((e) => e.specifier === r.specifier));
    expect(own.map((r) => r.specifier)).toEqual(expected.map((e) => e.specifier));
    report.push(`${pm} ${name} entries: ${own.map((r) => `${r.specifier} (${r.detail})`).join(', ')}`);
    expectNoProblems(`imports ${name}`, own.filter((r) => !r.ok).map((r) => `${r.specifier}: ${r.detail}`));
  });

  // The SOAP bundle inlines the file exchange core from source (tools/bundle-internal --from-source): its errors must
  // still be the REST package's very classes as a merchant installs both.
  it('gives @paykit/file-exchange-soap the error classes of @paykit/file-exchange themselves (one instanceof across both)', async () => {
    const { dir } = await project();
    await writeFile(
      join(dir, 'one-error-hierarchy.mjs'),
      [
        "import * as rest from '@paykit/file-exchange';",
        "import * as soap from '@paykit/file-exchange-soap';",
        "const shared = Object.keys(soap).filter((name) => name in rest && typeof rest[name] === 'function' && /^class\\b/.test(Function.prototype.toString.call(rest[name])));",
        "const raised = await soap.FileExchangeSoapClient.create({ baseUrl: 'relative', tls: { pfx: '/none.p12', passphrase: 'x' } }).catch((error) => error);",
        'console.log(JSON.stringify({ shared, copies: shared.filter((name) => soap[name] !== rest[name]), raised: raised instanceof rest.ClientOptionsError }));',
      ].join('\n'),
    );
    const [command, args] = projectCommand(pm, 'node', ['one-error-hierarchy.mjs']);
    const result = await run(command, args, { cwd: dir, env: cleanEnvironment(), timeoutMs: 60_000 });
    expect(result.code, describeResult(`${pm} node one-error-hierarchy.mjs`, result)).toBe(0);
    const outcome = JSON.parse(result.stdout.split('\n').findLast((text) => text.startsWith('{'))!) as { shared: string[]; copies: string[]; raised: boolean };
    expect(outcome.shared).toEqual(expect.arrayContaining(['FileExchangeError', 'AbortedError', 'TransientFailureError', 'TlsConfigurationError']));
    expect(outcome.copies).toEqual([]);
    expect(outcome.raised).toBe(true);
  });

  it.each(packages.map((pkg) => [pkg.name, pkg] as const))(
    `has exactly the entry points and exported names of %s that ${expectedSurfacesName} and its README list`,
    async (name, pkg) => {
      const results = await importResults();
      const manifest = JSON.parse(readFileSync(join(copyRoot, pkg.directory, 'package.json'), 'utf8')) as PackageManifest;
      // Run-time names as this project's import gave them; declared names from the same tarball's .d.ts.
      const runtime = new Map(entryPoints(manifest).flatMap((e) => results.filter((r) => r.specifier === e.specifier && r.names).map((r) => [e.key, r.names!] as const)));
      const declaredOfPackage = (await declaredNamesOfPackages()).get(name)!;
      expect(undeclaredValues(runtime, declaredOfPackage), 'exported at run time, missing from the declarations').toEqual([]);
      expect(surfaceProblems(name, surfaceOf(manifest, runtime, declaredOfPackage), expectedSurfaces[name], expectedSurfacesName)).toEqual([]);
    },
  );

  it.each(bins)('runs %s --help', async (bin) => {
    const [command, args] = projectCommand(pm, 'bin', [bin, '--help']);
    const result = await run(command, args, { cwd: (await project()).dir, env: cleanEnvironment(), timeoutMs: 60_000 });
    expect(result.code, describeResult(`${pm} ${bin} --help`, result)).toBe(0);
    // Yarn 1 prints its own lines around the bin's.
    expect(result.stdout).toMatch(new RegExp(`^usage: ${bin}\\b`, pm === 'yarn1' ? 'm' : ''));
  });

  if (bins.includes('paykit-mock')) {
    it('starts paykit-mock, whose payments mock answers with an example of its contract, and stops it', async () => {
      const { dir } = await project();
      const command = projectCommand(pm, 'bin', ['paykit-mock', 'payments', '--port-payments', '0']);
      const answer = await withRunningMock(dir, command, async (baseUrl) => {
        const response = await fetch(`${baseUrl}/transactions/1`, {
          headers: { authorization: `Basic ${Buffer.from('release-check:').toString('base64')}` },
        });
        return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
      });
      expect(answer.status).toBe(200);
      expect(answer.type).toMatch(/^application\/json/);
      // The spec the mock package ships, as packed from the copy (under Plug'n'Play it sits in a zip).
      const mockServer = packages.find((p) => p.name === '@paykit/mock-server')!;
      expect(contractExamples(join(copyRoot, mockServer.directory, 'dist', 'specs', 'payments.json'), '/rest/v1/transactions/1')).toContainEqual(answer.body);
    });
  }

  if (!usesNodeModules) return;

  it.each(packages.map((pkg) => [pkg.name, pkg] as const))('installs %s with nothing pointing back into the workspace', async (name) => {
    const dir = await installedPackageDir((await project()).dir, name);
    const shipped = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
    expectNoProblems(`install ${name}`, [...localDependencyProblems(shipped), ...(await buildPathProblems(dir, await packageFiles(dir), [repositoryRoot, copyRoot]))]);
  });

  it('links nothing into the workspace, and its lockfile names no workspace:, link: or file: dependency', async () => {
    const { dir, virtualStoreDir, lockfile } = await project();
    const problems = await symlinkProblems(dir, [repositoryRoot, copyRoot], virtualStoreDir === undefined ? [] : [virtualStoreDir]);
    if (/(?<![\w-])(workspace|link|file):(?!\s)/.test(await readFile(lockfile, 'utf8'))) problems.push('the lockfile has a workspace:, link: or file: dependency');
    expectNoProblems('install', problems);
  });

  for (const [name, samples] of Object.entries(browserEntries)) {
    for (const sample of samples) {
      it(`bundles ${name}'s ${sample} for the browser without Node built-ins`, async () => {
        const bundle = await bundleForBrowser((await project()).dir, `samples/${shortName(name)}/${sample}.ts`);
        report.push(`${pm} ${name} ${sample} browser bundle: ${kib(bundle.bytes)} KiB minified, ${kib(bundle.gzipBytes)} KiB gzip`);
        expectNoProblems(`browser ${name}/${sample}`, bundle.problems);
        // Bundled from the installed package, not from anything nearer.
        expect(bundle.inputs.some((input) => /node_modules\/@paykit\//.test(input))).toBe(true);
      });
    }
  }
});

// Last in the file: the type checks run in the background from the moment their project is installed, while the
// tests above run; their wait is a hook's, not a test's.
describe.each(nodeModulesCheckedManagers)('types in the %s project', (pm) => {
  let checks: Map<string, TypeCheck>;
  beforeAll(async () => {
    checks = await (await installedProject(pm)).typeChecks!;
  }, projectTimeoutMs);

  it.each(typeChecksToRun.map(({ mode, group, key }) => [group.packages.join(', '), mode, group.name, key] as const))(
    'type-checks the samples of %s under %s, strict, with no @types but theirs (%s)',
    (_, __, ___, key) => {
      const check = checks.get(key)!;
      if (check.result.code !== 0 && check.diagnostics.length === 0) throw new Error(describeResult('tsc', check.result));
      // Each diagnostic names its file (`samples/payments/...`, `@paykit/payments/dist/...`) or third-party package.
      const { group } = typeChecksToRun.find((check) => check.key === key)!;
      expect(check.diagnostics).toEqual([]);
    },
  );
});
