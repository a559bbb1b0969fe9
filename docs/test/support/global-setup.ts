// Once per run of the docs suite: the built site served on a free loopback port, and one Chromium (a playwright
// browser server) that every browser test file connects to. Starting them per file cost a browser launch and a server
// per file; each file now opens its own browser contexts on the shared browser, and closes them.
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { serveDirectory } from '../../scripts/server.mjs';
import { paths } from '../../scripts/site-paths.mjs';
import { chromiumArgs, chromiumMissing, chromiumPath } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built site's address, ending in `/`; empty when nothing is built. */
    siteUrl: string;
    /** The shared Chromium's playwright endpoint; empty when Chromium is missing. */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: Server | undefined;
  let browser: BrowserServer | undefined;
  const built = existsSync(join(paths.dist, 'index.html'));
  const [served, launched] = await Promise.all([
    built ? serveDirectory(paths.dist, 0) : undefined,
    chromiumMissing ? undefined : chromium.launchServer({ executablePath: chromiumPath, args: chromiumArgs }),
  ]);
  server = served?.server;
  browser = launched;
  project.provide('siteUrl', served?.url ?? '');
  project.provide('chromiumEndpoint', browser?.wsEndpoint() ?? '');
  return async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  };
}
