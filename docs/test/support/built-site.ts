// The built site, served once for the whole suite (global-setup.ts), and the suite's Chromium, for a browser test
// file of the site.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, inject } from 'vitest';
import { paths } from '../../scripts/site-paths.mjs';
import { sharedChromium } from './chromium.js';

/** Where the browser tests put their screenshots (kept out of git). */
export const screenshots = process.env.PAYKIT_DOCS_SCREENSHOTS ?? join(paths.docsRoot, 'test-results', 'screenshots');

export interface BuiltSite {
  browser: Browser;
  /** The site's address, ending in `/`. */
  url: string;
}

/**
 * Registers, for the calling describe block, the served site and a connection to the suite's Chromium. The returned
 * object is filled in before the block's first test.
 */
export function useBuiltSite(): BuiltSite {
  const chromium = sharedChromium();
  const site = {} as BuiltSite;
  beforeAll(() => {
    const url = inject('siteUrl');
    if (!url) throw new Error(`nothing built in ${paths.dist}: run "pnpm --filter @paykit/docs build" first`);
    mkdirSync(screenshots, { recursive: true });
    site.url = url;
    Object.defineProperty(site, 'browser', { get: () => chromium.browser });
  });
  return site;
}
