// The browser test is only as good as its guard: a page that reaches off-site, fails a first-party request or logs
// an error must be caught. This runs the guard on pages built to misbehave, one fault each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory } from '../scripts/server.mjs';
import { launchChromium, skipBrowserTests } from './support/chromium.js';
import { openOffline, type PageProblems } from './support/offline-page.js';

const pages = {
  'clean.html': '<!doctype html><link rel="icon" href="data:,"><h1>clean</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
  'offsite.html': '<!doctype html><link rel="icon" href="data:,"><img src="https://cdn.example.com/logo.svg">',
  'missing-asset.html': '<!doctype html><link rel="icon" href="data:,"><script src="missing.js"></script>',
  'console-error.html': '<!doctype html><link rel="icon" href="data:,"><script>console.error("broken widget")</script>',
  'uncaught.html': '<!doctype html><link rel="icon" href="data:,"><script>null.boom()</script>',
};

let dir: string;
let server: Server;
let url: string;
let browser: Browser;

describe.skipIf(skipBrowserTests)('openOffline guard', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paykit-docs-guard-'));
    for (const [name, html] of Object.entries(pages)) writeFileSync(join(dir, name), html);
    ({ server, url } = await serveDirectory(dir, 0));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each<{ page: keyof typeof pages; kind: keyof PageProblems | null; match: RegExp }>([
    { page: 'clean.html', kind: null, match: /^$/ },
    { page: 'offsite.html', kind: 'offsiteRequests', match: /cdn\.example\.com\/logo\.svg/ },
    { page: 'missing-asset.html', kind: 'failedRequests', match: /missing\.js: HTTP 404/ },
    { page: 'console-error.html', kind: 'consoleErrors', match: /broken widget/ },
    { page: 'uncaught.html', kind: 'consoleErrors', match: /^uncaught: / },
  ])('$page is reported as $kind', async ({ page, kind, match }) => {
    const opened = await openOffline(browser, url, page);
    try {
      await opened.page.waitForLoadState('networkidle');
      const { problems } = opened;
      if (kind === null) {
        expect(problems).toEqual({ offsiteRequests: [], failedRequests: [], consoleErrors: [] });
      } else {
        expect(problems[kind].some((entry) => match.test(entry)), JSON.stringify(problems)).toBe(true);
      }
    } finally {
      await opened.context.close();
    }
  });
});
