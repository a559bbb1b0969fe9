import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cleanEnvironment, run, type CommandResult } from './commands.js';
import type { PublishedPackage } from './release.js';
import { scope } from './registry.js';

/**
 * The package managers a merchant may use, one project each: npm; pnpm in its strictest layout; Yarn 1; Yarn 4
 * with Plug'n'Play and with `node_modules`.
 */
export const packageManagers = ['npm', 'pnpm', 'yarn1', 'yarn4-pnp', 'yarn4-node-modules'] as const;
export type PackageManager = (typeof packageManagers)[number];

/** The projects whose `node_modules` the type checks and the browser bundle read (tsc and esbuild know no PnP). */
export const nodeModulesCheckedManagers: PackageManager[] = ['npm', 'pnpm'];

const isYarn = (pm: PackageManager) => pm.startsWith('yarn');

/** The pinned Yarn releases, dev dependencies of this package (Yarn 4 is published as @yarnpkg/cli-dist). */
const require = createRequire(import.meta.url);
const yarnBins = {
  yarn1: join(dirname(require.resolve('yarn/package.json')), 'bin', 'yarn.js'),
  yarn4: join(dirname(require.resolve('@yarnpkg/cli-dist/package.json')), 'bin', 'yarn.js'),
};

/** The @types/node release a merchant's project pins beside our packages: this package's own (a dev dependency). */
export const merchantNodeTypes = (require('@types/node/package.json') as { version: string }).version;

/** Where third-party packages come from on this machine, as npm is configured to fetch them. */
export interface PublicRegistry {
  url: string;
  /** The certificate authorities npm trusts for it (npm's `cafile`, else NODE_EXTRA_CA_CERTS); none when unset. */
  caFile?: string;
}

/**
 * Reads, once, the registry and certificate file npm uses (`npm config get`, from `cwd`, a folder with no project
 * configuration of its own), so that every install is given them explicitly. Nothing else can be trusted to find
 * them: `npm --prefix` moves npm's global configuration (where this machine keeps `cafile`), turbo passes the test no
 * NODE_EXTRA_CA_CERTS, and Yarn 4 reads neither; each then asks the registry through a TLS-intercepting proxy with
 * Node's built-in authorities and fails ("self-signed certificate in certificate chain").
 */
export async function publicRegistry(cwd: string, env: NodeJS.ProcessEnv = cleanEnvironment()): Promise<PublicRegistry> {
  const result = await run('npm', ['config', 'get', 'registry', 'cafile'], { cwd, env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`npm config get exited ${result.code}: ${result.stderr.slice(-2000)}`);
  const values = new Map(
    result.stdout
      .split('\n')
      .map((line) => /^(\w+)=(.*)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map(([, key, value]) => [key!, value!.trim()]),
  );
  const given = (value: string | undefined) => (value === undefined || value === '' || value === 'null' || value === 'undefined' ? undefined : value);
  const url = given(values.get('registry'));
  if (url === undefined) throw new Error(`npm config get registry printed nothing:\n${result.stdout}`);
  const caFile = given(values.get('cafile')) ?? given(env.NODE_EXTRA_CA_CERTS);
  return caFile === undefined ? { url } : { url, caFile };
}

/**
 * The `.npmrc` of a merchant project, read by npm, pnpm and Yarn 1: our scope from the local registry, everything
 * else from the registry npm uses, trusting the authorities npm trusts.
 */
export function projectNpmrc(localRegistryUrl: string, upstream: PublicRegistry): string {
  return [
    `${scope}:registry=${localRegistryUrl}`,
    `registry=${upstream.url}`,
    ...(upstream.caFile === undefined ? [] : [`cafile=${upstream.caFile}`]),
    '',
  ].join('\n');
}

/**
 * The `.yarnrc.yml` of a Yarn 4 project: the linker; third-party packages from the registry npm uses, trusting the
 * authorities npm trusts; our scope from the local registry, over plain HTTP (allowed for its host only), and
 * pre-approved (Yarn 4 otherwise refuses a version published minutes ago as quarantined). Under Plug'n'Play no
 * fallback: a package reaches only what it declares, not the project's own dependencies (our other packages).
 */
export function yarnrc(pm: 'yarn4-pnp' | 'yarn4-node-modules', localRegistryUrl: string, upstream: PublicRegistry): string {
  return [
    `nodeLinker: ${pm === 'yarn4-pnp' ? 'pnp' : 'node-modules'}`,
    ...(pm === 'yarn4-pnp' ? ['pnpFallbackMode: none'] : []),
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

/**
 * pnpm's strictest layout (its `pnpm-workspace.yaml` settings), where a package reaches only what it declares:
 * isolated `node_modules`, nothing hoisted (by default pnpm hoists every package into `.pnpm/node_modules`, where any
 * package finds it), and the virtual store outside the project: inside, Node and TypeScript, walking up from a
 * package in `node_modules/.pnpm`, would reach the project's own `node_modules` and so every package the merchant
 * installed. Installed together, our packages thus cannot hide each other's undeclared dependencies.
 */
export function strictPnpmSettings(virtualStoreDir: string): string {
  return [
    'nodeLinker: isolated',
    'hoist: false',
    'publicHoistPattern: []',
    `virtualStoreDir: ${JSON.stringify(virtualStoreDir)}`,
    // Third-party packages whose declarations reference Node's types (`/// <reference types="node" />`) without
    // declaring @types/node, which pnpm's default hoisting hides: declared here for them, so that the type check
    // finds what they need and our packages stay checked as strictly.
    'packageExtensions:',
    ...thirdPartyNeedingNodeTypes.flatMap((name) => [`  ${name}:`, '    peerDependencies:', '      "@types/node": "*"']),
    '',
  ].join('\n');
}

/** See `strictPnpmSettings`: undici's declarations and undici-types (which @types/node itself depends on). */
const thirdPartyNeedingNodeTypes = ['undici', 'undici-types'];

/** The command that runs a bin or `node <script>` the way a merchant of that package manager does. */
export function projectCommand(pm: PackageManager, kind: 'bin' | 'node', args: string[]): [string, string[]] {
  if (isYarn(pm)) return [process.execPath, [pm === 'yarn1' ? yarnBins.yarn1 : yarnBins.yarn4, ...(kind === 'node' ? ['node'] : []), ...args]];
  // --no: never download a package of that name; `--` so that the bin's flags go to the bin, not to npx.
  return kind === 'bin' ? ['npx', ['--no', '--', ...args]] : [process.execPath, args];
}

export interface MerchantProject {
  packageManager: PackageManager;
  dir: string;
  /** pnpm's virtual store, outside the project (see `strictPnpmSettings`). */
  virtualStoreDir?: string;
  /** The lockfile the install wrote. */
  lockfile: string;
  install: CommandResult;
}

/**
 * A fresh project outside the workspace, `<root>/<package manager>`, that installs every package given at once as
 * a merchant would: `npm install`, `pnpm add`, `yarn add`, without flags beyond npm's usual ones.
 */
export async function installProject(
  root: string,
  pm: PackageManager,
  packages: PublishedPackage[],
  localRegistryUrl: string,
  upstream: PublicRegistry,
): Promise<MerchantProject> {
  const dir = join(root, pm);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }, null, 2)}\n`);
  await writeFile(join(dir, '.npmrc'), projectNpmrc(localRegistryUrl, upstream));
  // The merchant's own @types/node, for the Node they run (our packages' peer on it is optional): the one this
  // check's own tools compile with.
  const specs = [...packages.map((p) => `${p.name}@${p.version}`), `@types/node@${merchantNodeTypes}`];
  const env = cleanEnvironment({ YARN_ENABLE_TELEMETRY: '0' });
  const options = { cwd: dir, env, timeoutMs: 300_000 };
  if (pm === 'npm') {
    // No install scripts: ours have none, and a third-party one could reach the network.
    // --prefer-offline: npm otherwise asks the registry again about every cached package.
    const install = await run('npm', ['install', ...specs, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], options);
    return { packageManager: pm, dir, lockfile: join(dir, 'package-lock.json'), install };
  }
  if (pm === 'pnpm') {
    const virtualStoreDir = join(root, 'pnpm-virtual-store');
    await writeFile(join(dir, 'pnpm-workspace.yaml'), strictPnpmSettings(virtualStoreDir));
    // No build scripts to approve: none of our dependencies has one (Prism, whose analytics dependency had one, is
    // bundled into @paykit/mock-server).
    const install = await run('pnpm', ['add', ...specs, '--prefer-offline'], options);
    return { packageManager: pm, dir, virtualStoreDir, lockfile: join(dir, 'pnpm-lock.yaml'), install };
  }
  // An empty yarn.lock makes the folder a project of its own. Yarn 1 reads our scope's registry from `.npmrc`, Yarn 4
  // from `.yarnrc.yml`.
  await writeFile(join(dir, 'yarn.lock'), '');
  if (pm !== 'yarn1') await writeFile(join(dir, '.yarnrc.yml'), yarnrc(pm, localRegistryUrl, upstream));
  // Yarn 1's machine-wide cache is not safe for two installs at once (CI saw one read a package another was still
  // unpacking: ENOENT under .cache/yarn/v6), and another run of this check may be installing beside this one: the
  // project has a cache of its own. Yarn 4 moves finished files into its cache atomically and keeps the shared one.
  const cache: Record<string, string> = pm === 'yarn1' ? { YARN_CACHE_FOLDER: join(dir, '.yarn1-cache') } : {};
  const [command, args] = projectCommand(pm, 'bin', ['add', ...specs]); // `yarn add ...`
  const install = await run(command, args, { ...options, env: { ...env, ...cache } });
  return { packageManager: pm, dir, lockfile: join(dir, 'yarn.lock'), install };
}
