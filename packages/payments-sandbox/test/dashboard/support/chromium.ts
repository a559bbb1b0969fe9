// Where the browser is and how it starts: Debian's Chromium driven by playwright-core, headless, with every
// background service that would reach the internet switched off (as docs/test/support/chromium.ts).
import { existsSync } from 'node:fs';

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
