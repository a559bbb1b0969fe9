// end-to-end: a real Chromium sends the page's requests to a real payments sandbox.
// What a web page can do to a payments sandbox left running on the developer's machine: nothing. A page from another
// origin sends the requests a browser lets any page send without asking (no-cors: a JSON text as text/plain, a form,
// a multipart form) to the sandbox's control interface; Chromium sends them, and the sandbox refuses every one
// (no token, another origin, a form's media type), so the sandbox clock has not moved and nothing was reset.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveDirectory } from '../scripts/server.mjs';
import { sharedChromium, skipBrowserTests } from './support/chromium.js';

// Each test waits on Chromium; a hang still fails within this bound.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const page = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>a page</title>
<script type="module">
const control = new URLSearchParams(location.search).get('control');
const body = JSON.stringify({ ms: 86400000 });
const form = new FormData();
form.set('ms', '86400000');
const attempts = [
  { method: 'POST', path: '/clock/advance', body, headers: { 'content-type': 'text/plain' } },
  { method: 'POST', path: '/clock/advance', body: 'ms=86400000', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { method: 'POST', path: '/clock/advance', body: form },
  { method: 'POST', path: '/reset' },
];
const outcome = [];
for (const { path, ...init } of attempts) {
  try {
    const response = await fetch(control + path, { ...init, mode: 'no-cors' });
    outcome.push({ path, type: response.type });
  } catch (error) {
    outcome.push({ path, error: error.name });
  }
}
window.outcome = outcome;
</script>`;

let sandbox: PaymentsSandbox;
let site: { server: Server; url: string };
let dir: string;

describe.skipIf(skipBrowserTests)('a page from another origin sending requests to the sandbox control interface', () => {
  const chromium = sharedChromium();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paykit-page-'));
    writeFileSync(join(dir, 'index.html'), page);
    [sandbox, site] = await Promise.all([startPaymentsSandbox(), serveDirectory(dir, 0)]);
  });

  afterAll(async () => {
    await Promise.all([sandbox?.close(), new Promise((resolve) => (site ? site.server.close(resolve) : resolve(undefined)))]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('Chromium sends each request, the sandbox refuses each one, and nothing changes', async () => {
    await sandbox.control.advanceClock({ ms: 1_000 });
    const context = await chromium.browser.newContext();
    const answers: { url: string; status: number }[] = [];
    try {
      const tab = await context.newPage();
      tab.on('response', (response) => {
        if (response.url().startsWith(sandbox.controlUrl)) answers.push({ url: response.url(), status: response.status() });
      });
      await tab.goto(`${new URL('index.html', site.url).href}?${new URLSearchParams({ control: sandbox.controlUrl })}`);
      await tab.waitForFunction(() => 'outcome' in window, undefined, { timeout: 30_000 });
      const outcome = (await tab.evaluate(() => (window as unknown as { outcome: unknown }).outcome)) as { path: string; type?: string }[];
      // The page cannot even read the refusals: opaque answers.
      expect(outcome.map((o) => o.type)).toEqual(['opaque', 'opaque', 'opaque', 'opaque']);
    } finally {
      await context.close();
    }
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect((await sandbox.control.getClock()).offsetMs).toBe(1_000);
  });
});
