// Once per run of the sandbox's suite, for the dashboard's browser tests: one Chromium (a playwright browser server
// the test files connect to, as docs/test does), and the payments client packed as a merchant installs it (`pnpm
// pack` of packages/payments, unpacked into a temporary node_modules), so that the tests take payments with the
// published files rather than the workspace's sources.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumArgs, chromiumMissing, chromiumPath } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's Chromium (a playwright endpoint); empty when Chromium is missing. */
    chromiumEndpoint: string;
    /** The entry file of the packed @paykit/payments; empty when Chromium is missing (only the browser tests use it). */
    packedPayments: string;
  }
}

const paymentsFolder = fileURLToPath(new URL('../../../../payments/', import.meta.url));

/** `pnpm pack` of @paykit/payments into `dir`, unpacked as `dir/node_modules/@paykit/payments`; its entry file. */
function packPayments(dir: string): string {
  execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: paymentsFolder, stdio: 'ignore', env: { ...process.env, npm_config_loglevel: 'error' } });
  const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${dir}`);
  const unpacked = join(dir, 'node_modules', '@paykit', 'payments');
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', unpacked, '--strip-components=1']);
  // Its one dependency, as an install would put it beside it: the version the workspace resolved for the package.
  const requireFromPayments = createRequire(join(paymentsFolder, 'package.json'));
  const fetchFolder = dirname(requireFromPayments.resolve('openapi-fetch/package.json'));
  symlinkSync(fetchFolder, join(dir, 'node_modules', 'openapi-fetch'), 'dir');
  return join(unpacked, 'dist', 'index.js');
}

export default async function setup(project: TestProject) {
  if (chromiumMissing) {
    project.provide('chromiumEndpoint', '');
    project.provide('packedPayments', '');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'paykit-dashboard-'));
  let browser: BrowserServer | undefined;
  try {
    const [entry, launched] = await Promise.all([
      Promise.resolve().then(() => packPayments(dir)),
      chromium.launchServer({ executablePath: chromiumPath, args: chromiumArgs }),
    ]);
    browser = launched;
    if (!existsSync(entry)) throw new Error(`the packed @paykit/payments has no ${entry}: is packages/payments built?`);
    project.provide('chromiumEndpoint', browser.wsEndpoint());
    project.provide('packedPayments', entry);
  } catch (error) {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
