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
export const yarnFlavours: YarnFlavour[] = ['yarn1', 'yarn4-pnp', 'yarn4-node-modules'];

/** The pinned Yarn releases, as npm packages (Yarn 4 is published as @yarnpkg/cli-dist). */
const yarnReleases = { yarn1: { name: 'yarn', version: '1.22.22' }, yarn4: { name: '@yarnpkg/cli-dist', version: '4.18.1' } } as const;

/** Where `installYarns` put each release (the path of its `bin/yarn.js`), and the registry Yarn 4 is sent to. */
export interface YarnBins extends Record<keyof typeof yarnReleases, string> {
  upstream: PublicRegistry;
}

/**
 * Installs the pinned Yarn releases under `dir` with npm (one folder each: both name their bin `yarn`) and reads
 * npm's registry configuration for Yarn 4's projects.
 */
export async function installYarns(dir: string): Promise<YarnBins> {
  await mkdir(dir, { recursive: true });
  const bins = { upstream: await publicRegistry(dir) } as YarnBins;
  for (const [key, { name, version }] of Object.entries(yarnReleases) as [keyof typeof yarnReleases, (typeof yarnReleases)[keyof typeof yarnReleases]][]) {
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

/** Where third-party packages come from on this machine, as npm is configured to fetch them. */
export interface PublicRegistry {
  url: string;
  /** The certificate authorities npm trusts for it (npm's `cafile`, else NODE_EXTRA_CA_CERTS); none when unset. */
  caFile?: string;
}

/**
 * Reads the registry and certificate file npm uses (`npm config get`), for Yarn 4, which reads neither npm's
 * configuration nor, under turbo (which passes only the variables it is told to), NODE_EXTRA_CA_CERTS: left to its
 * defaults it asks registry.yarnpkg.com with Node's built-in authorities, and fails TLS on a machine whose traffic
 * goes through a proxy with its own authority ("self-signed certificate in certificate chain").
 */
export async function publicRegistry(cwd: string, env: NodeJS.ProcessEnv = cleanEnvironment()): Promise<PublicRegistry> {
  const get = async (key: string) => {
    const result = await run('npm', ['config', 'get', key], { cwd, env, timeoutMs: 60_000 });
    if (result.code !== 0) throw new Error(`npm config get ${key} exited ${result.code}: ${result.stderr.slice(-2000)}`);
    const value = result.stdout.trim();
    return value === '' || value === 'null' || value === 'undefined' ? undefined : value;
  };
  const url = await get('registry');
  if (url === undefined) throw new Error('npm config get registry printed nothing');
  const caFile = (await get('cafile')) ?? (env.NODE_EXTRA_CA_CERTS || undefined);
  return caFile === undefined ? { url } : { url, caFile };
}

/**
 * The `.yarnrc.yml` of a Yarn 4 project: the linker; third-party packages from the registry npm uses, trusting the
 * authorities npm trusts; our scope from the local registry, over plain HTTP (allowed for its host only), and
 * pre-approved (Yarn 4 otherwise refuses a version published minutes ago as quarantined).
 */
export function yarnrc(flavour: Exclude<YarnFlavour, 'yarn1'>, localRegistryUrl: string, upstream: PublicRegistry): string {
  return [
    `nodeLinker: ${flavour === 'yarn4-pnp' ? 'pnp' : 'node-modules'}`,
    'enableTelemetry: false',
    `npmRegistryServer: ${JSON.stringify(upstream.url)}`,
    ...(upstream.caFile === undefined ? [] : [`httpsCaFilePath: ${JSON.stringify(upstream.caFile)}`]),
    `unsafeHttpWhitelist: [${JSON.stringify(new URL(localRegistryUrl).hostname)}]`,
    `npmPreapprovedPackages: ["${scope}/*"]`,
    'npmScopes:',
    `  ${scope.slice(1)}:`,
    `    npmRegistryServer: ${JSON.stringify(localRegistryUrl)}`,
    '',
  ].join('\n');
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
 * `.yarnrc.yml` (see `yarnrc`). An empty yarn.lock makes the folder a project of its own.
 */
async function yarnAdd(dir: string, flavour: YarnFlavour, spec: string, registryUrl: string, bins: YarnBins): Promise<CommandResult> {
  await writeFile(join(dir, 'yarn.lock'), '');
  if (flavour !== 'yarn1') await writeFile(join(dir, '.yarnrc.yml'), yarnrc(flavour, registryUrl, bins.upstream));
  const [command, args] = yarnCommand(bins, flavour, ['add', spec]);
  // Yarn 1's machine-wide cache is not safe for two installs at once (CI saw one read a package another was still
  // unpacking: ENOENT under .cache/yarn/v6); each project gets a cache of its own. Yarn 4 moves finished files into
  // its cache atomically and keeps the shared one.
  const cache: Record<string, string> = flavour === 'yarn1' ? { YARN_CACHE_FOLDER: join(dir, '.yarn1-cache') } : {};
  return run(command, args, { cwd: dir, env: cleanEnvironment({ YARN_ENABLE_TELEMETRY: '0', ...cache }), timeoutMs: 300_000 });
}
