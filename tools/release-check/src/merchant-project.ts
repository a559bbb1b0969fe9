import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanEnvironment, run, type CommandResult } from './commands.js';
import type { PublishedPackage } from './release.js';
import { scope } from './registry.js';

export type PackageManager = 'npm' | 'pnpm' | YarnFlavour;
/** The package managers every check runs under (the layouts the type checks and file checks read). */
export const packageManagers: PackageManager[] = ['npm', 'pnpm'];

/** Yarn 1, and Yarn 4 with each linker: each installs every package and runs it (imports, the bins, a mock). */
export type YarnFlavour = 'yarn1' | 'yarn4-pnp' | 'yarn4-node-modules';
// Yarn 4 is left out for now: on the CI machine its installs of our dependencies from the public registry fail TLS
// ("self-signed certificate in certificate chain") although npm, pnpm and Yarn 1 pass; see issue 21's note.
export const yarnFlavours: YarnFlavour[] = ['yarn1'];

/** The pinned Yarn releases, as npm packages (Yarn 4 is published as @yarnpkg/cli-dist). */
const yarnReleases = { yarn1: { name: 'yarn', version: '1.22.22' }, yarn4: { name: '@yarnpkg/cli-dist', version: '4.18.1' } } as const;

/** Where `installYarns` put each release: the path of its `bin/yarn.js`. */
export type YarnBins = Record<keyof typeof yarnReleases, string>;

/** Installs the pinned Yarn releases under `dir` with npm (one folder each: both name their bin `yarn`). */
export async function installYarns(dir: string): Promise<YarnBins> {
  const bins = {} as YarnBins;
  for (const [key, { name, version }] of Object.entries(yarnReleases) as [keyof YarnBins, (typeof yarnReleases)[keyof YarnBins]][]) {
    const prefix = join(dir, key);
    await mkdir(prefix, { recursive: true });
    const result = await run('npm', ['install', '--prefix', prefix, `${name}@${version}`, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: prefix,
      env: cleanEnvironment(),
      timeoutMs: 300_000,
    });
    if (result.code !== 0) throw new Error(`npm install ${name}@${version} exited ${result.code}: ${result.stderr.slice(-2000)}`);
    bins[key] = join(prefix, 'node_modules', ...name.split('/'), 'bin', 'yarn.js');
  }
  return bins;
}

/** The command that runs `args` with the project's own package manager (`yarn node`, `yarn paykit-mock`...). */
export function yarnCommand(bins: YarnBins, flavour: YarnFlavour, args: string[]): [string, string[]] {
  return [process.execPath, [flavour === 'yarn1' ? bins.yarn1 : bins.yarn4, ...args]];
}

export interface MerchantProject {
  packageManager: PackageManager;
  /** The one package of ours this project installed (its own dependencies come with it). */
  package: PublishedPackage;
  dir: string;
  install: CommandResult;
}

/**
 * A fresh project outside the workspace that installs one of our packages as a merchant would (`npm install` or
 * `pnpm add`). Only our scope comes from the local registry (`.npmrc`); everything else from the machine's usual
 * registry configuration. One package per project: installed together, one package's dependencies would hide what
 * another forgot to declare (npm hoists them, pnpm hoists them into `.pnpm/node_modules`).
 */
export async function installInNewProject(
  root: string,
  packageManager: PackageManager,
  pkg: PublishedPackage,
  registryUrl: string,
  yarnBins?: YarnBins,
): Promise<MerchantProject> {
  const dir = join(root, `${packageManager}-${pkg.name.replace(/^@[^/]+\//, '')}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }, null, 2)}\n`);
  await writeFile(join(dir, '.npmrc'), `${scope}:registry=${registryUrl}\n`);
  const spec = `${pkg.name}@${pkg.version}`;
  let install: CommandResult;
  if (packageManager === 'yarn1' || packageManager === 'yarn4-pnp' || packageManager === 'yarn4-node-modules') {
    if (!yarnBins) throw new Error('installYarns first');
    install = await yarnAdd(dir, packageManager, spec, registryUrl, yarnBins);
  } else if (packageManager === 'npm') {
    // No install scripts: ours have none, and a third-party one could reach the network.
    // --prefer-offline: npm otherwise asks the registry again about every cached package.
    install = await run('npm', ['install', spec, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      env: cleanEnvironment(),
      timeoutMs: 300_000,
    });
  } else {
    // No configuration: none of our dependencies has a build script for pnpm to ask about (Prism, whose analytics
    // dependency had one, is bundled into @paykit/mock-server).
    install = await run('pnpm', ['add', spec], { cwd: dir, env: cleanEnvironment(), timeoutMs: 300_000 });
  }
  return { packageManager, package: pkg, dir, install };
}

/**
 * `yarn add` as a merchant runs it, with no flag: Yarn 1 reads our scope's registry from `.npmrc`; Yarn 4 from
 * `.yarnrc.yml`, which also chooses the linker, allows plain HTTP to the local registry and pre-approves our scope
 * (Yarn 4 otherwise refuses a version published minutes ago as quarantined). An empty yarn.lock makes the folder a
 * project of its own.
 */
async function yarnAdd(dir: string, flavour: YarnFlavour, spec: string, registryUrl: string, bins: YarnBins): Promise<CommandResult> {
  await writeFile(join(dir, 'yarn.lock'), '');
  if (flavour !== 'yarn1') {
    const host = new URL(registryUrl).hostname;
    await writeFile(
      join(dir, '.yarnrc.yml'),
      [
        `nodeLinker: ${flavour === 'yarn4-pnp' ? 'pnp' : 'node-modules'}`,
        'enableTelemetry: false',
        `unsafeHttpWhitelist: [${JSON.stringify(host)}]`,
        `npmPreapprovedPackages: ["${scope}/*"]`,
        'npmScopes:',
        `  ${scope.slice(1)}:`,
        `    npmRegistryServer: ${JSON.stringify(registryUrl)}`,
        '',
      ].join('\n'),
    );
  }
  const [command, args] = yarnCommand(bins, flavour, ['add', spec]);
  // Yarn 1's machine-wide cache is not safe for two installs at once (CI saw one read a package another was still
  // unpacking: ENOENT under .cache/yarn/v6); each project gets a cache of its own. Yarn 4 moves finished files into
  // its cache atomically and keeps the shared one.
  const cache: Record<string, string> = flavour === 'yarn1' ? { YARN_CACHE_FOLDER: join(dir, '.yarn1-cache') } : {};
  return run(command, args, { cwd: dir, env: cleanEnvironment({ YARN_ENABLE_TELEMETRY: '0', ...cache }), timeoutMs: 300_000 });
}
