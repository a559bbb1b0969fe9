import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanEnvironment, run, type CommandResult } from './commands.js';
import type { PublishedPackage } from './release.js';
import { scope } from './registry.js';

export type PackageManager = 'npm' | 'pnpm';
export const packageManagers: PackageManager[] = ['npm', 'pnpm'];

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
): Promise<MerchantProject> {
  const dir = join(root, `${packageManager}-${pkg.name.replace(/^@[^/]+\//, '')}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }, null, 2)}\n`);
  await writeFile(join(dir, '.npmrc'), `${scope}:registry=${registryUrl}\n`);
  const spec = `${pkg.name}@${pkg.version}`;
  let install: CommandResult;
  if (packageManager === 'npm') {
    // No install scripts: ours have none, and some third-party ones (Prism's analytics) would reach the network.
    // --prefer-offline: npm otherwise asks the registry again about every cached package (half a minute for Prism's).
    install = await run('npm', ['install', spec, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      env: cleanEnvironment(),
      timeoutMs: 300_000,
    });
  } else {
    // What @paykit/mock-server's README tells pnpm users: Prism's dependency @scarf/scarf (install analytics) has a
    // build script, which pnpm refuses to leave undecided.
    await writeFile(join(dir, 'pnpm-workspace.yaml'), 'allowBuilds:\n  "@scarf/scarf": false\n');
    install = await run('pnpm', ['add', spec], { cwd: dir, env: cleanEnvironment(), timeoutMs: 300_000 });
  }
  return { packageManager, package: pkg, dir, install };
}
