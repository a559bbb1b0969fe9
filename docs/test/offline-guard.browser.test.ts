// end-to-end: a real Chromium opens the pages built to misbehave.
// The browser test is only as good as its guard: a page that reaches off-site, fails a first-party request or logs
// an error must be caught. This runs the guard on pages built to misbehave, one fault each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveDirectory } from '../scripts/server.mjs';
import { sharedChromium, skipBrowserTests } from './support/chromium.js';
import { openOffline, type PageProblems } from './support/offline-page.js';

// Each test waits on Chromium; a hang still fails within this bound.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

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

describe.skipIf(skipBrowserTests)('openOffline guard', () => {
  const chromium = sharedChromium();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paykit-docs-guard-'));
    for (const [name, html] of Object.entries(pages)) writeFileSync(join(dir, name), html);
    ({ server, url } = await serveDirectory(dir, 0));
  });

  afterAll(async () => {
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
    const opened = await openOffline(chromium.browser, url, page);
    try {
      // openOffline waited for the load event: every request of these one-line pages, and their scripts, came before it.
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
