// Where the browser is and how it is started: Debian's Chromium driven by playwright-core, headless, with every
// background service that would reach the internet switched off. The suite starts one (global-setup.ts) and every
// browser test file connects to it with `sharedChromium()`.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumMissing = !existsSync(chromiumPath);

export const installHint =
  `Chromium not found at ${chromiumPath}: install it with "apt-get update && apt-get install -y chromium" ` +
  '(or point CHROMIUM_PATH at a Chromium binary). With CI=true this test fails instead of skipping.';

/** Outside CI a missing browser skips the browser tests (with the hint); in CI it never does. */
export const skipBrowserTests = chromiumMissing && process.env.CI !== 'true';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Registers, for the calling describe block, a connection to the suite's one Chromium (started by the global set-up).
 * The returned holder's `browser` is set before the block's first test; the connection (and every context the file
 * left open) is closed after its last.
 */
export function sharedChromium(): { browser: Browser } {
  const holder = {} as { browser: Browser };
  beforeAll(async () => {
    const endpoint = inject('chromiumEndpoint');
    if (!endpoint) throw new Error(installHint);
    holder.browser = await chromium.connect(endpoint);
  });
  afterAll(async () => {
    await holder.browser?.close();
  });
  return holder;
}

if (skipBrowserTests) console.warn(`SKIPPED browser tests: ${installHint}`);
