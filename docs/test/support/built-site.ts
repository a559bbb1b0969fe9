// The built site served on a random loopback port, and one Chromium, for a browser test file of the site.
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { serveDirectory } from '../../scripts/server.mjs';
import { paths } from '../../scripts/site-paths.mjs';
import { launchChromium } from './chromium.js';

/** Where the browser tests put their screenshots (kept out of git). */
export const screenshots = process.env.PAYKIT_DOCS_SCREENSHOTS ?? join(paths.docsRoot, 'test-results', 'screenshots');

export interface BuiltSite {
  browser: Browser;
  /** The site's address, ending in `/`. */
  url: string;
}

/**
 * Registers the set-up and tear-down of the calling describe block: the built site served from `dist`, and Chromium.
 * The returned object is filled in before the block's first test.
 */
export function useBuiltSite(): BuiltSite {
  const site = {} as BuiltSite;
  let server: Server | undefined;
  beforeAll(async () => {
    if (!existsSync(join(paths.dist, 'index.html'))) throw new Error(`nothing built in ${paths.dist}: run "pnpm --filter @paykit/docs build" first`);
    mkdirSync(screenshots, { recursive: true });
    const served = await serveDirectory(paths.dist, 0);
    server = served.server;
    site.url = served.url;
    site.browser = await launchChromium();
  });
  afterAll(async () => {
    await site.browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  return site;
}
