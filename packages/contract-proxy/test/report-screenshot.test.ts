// end-to-end: a real browser (Debian's Chromium through playwright-core) renders the HTML report and is photographed.
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { renderHtml, startContractProxy, type ProxyReport } from '../src/index.js';
import { cardTokenRequest, send } from './support/merchant.js';

// Starting Chromium on a loaded two-core machine has taken several seconds: this file's own budget.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = !existsSync(chromiumPath);
// Outside CI a missing browser skips this file with a hint; in CI (CI=true) it fails.
const skip = missing && process.env.CI !== 'true';
if (skip) console.warn(`SKIPPED: no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
const screenshots = process.env.PAYKIT_PROXY_SCREENSHOTS ?? fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
const sandbox = inject('sandbox');

describe.skipIf(skip)('the HTML report in Chromium', () => {
  let browser: Browser;
  let report: ProxyReport;
  beforeAll(async () => {
    const proxy = await startContractProxy({ upstream: sandbox.url, secretKeys: [sandbox.secretKey], publishableKeys: [sandbox.publishableKey] });
    try {
      const accept = { accept: 'application/json' };
      await send(proxy.url, 'GET', '/transactions', { key: sandbox.secretKey, headers: accept });
      for (let i = 0; i < 3; i++) await send(proxy.url, 'POST', '/single-use-tokens', { key: sandbox.publishableKey, headers: accept, body: cardTokenRequest() });
      await send(proxy.url, 'POST', '/single-use-tokens', { key: sandbox.publishableKey, headers: { ...accept, 'idempotency-key': 'shot-1' }, body: cardTokenRequest('4111x') });
      await send(proxy.url, 'GET', '/transactions', { key: sandbox.publishableKey, headers: accept });
      report = proxy.report();
    } finally {
      await proxy.close();
    }
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(() => browser?.close());

  it('shows the verdict, the context, the answers by status, the violations with their sources and exchanges, and the coverage', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.setContent(renderHtml(report), { waitUntil: 'load' });
    expect(await page.locator('.verdict').innerText()).toBe('FAIL');
    const context = await page.locator('h2:has-text("Context") + table').innerText();
    expect(context).toContain(sandbox.url);
    expect(context).toContain(`${report.contract.title} (payments) ${report.contract.version}`);
    expect(context).toContain('observe: every request was passed on');
    expect(await page.locator('h2:has-text("Answers by status") + table').innerText()).toMatch(/200\s+4/);
    const violations = page.locator('h2:has-text("Violations") + table tbody tr');
    const rules = await violations.locator('td:nth-child(2)').allInnerTexts();
    expect(rules).toEqual(expect.arrayContaining(['idempotency-key', 'openapi:pattern']));
    const idempotency = violations.filter({ hasText: 'idempotency-key' });
    expect(await idempotency.locator('td:nth-child(7)').innerText()).toBe('3');
    expect(await violations.filter({ hasText: 'openapi:pattern' }).innerText()).toContain('#/components/schemas/CreditCardTokenRequest');
    await expect.poll(() => page.locator('h2:has-text("Coverage")').innerText()).toMatch(/Coverage: 2 of \d+ operations exercised/);
    // A violation's exchange link lands on that exchange's row.
    await idempotency.locator('a').first().click();
    expect(await page.evaluate(() => location.hash)).toMatch(/^#exchange-\d+$/);
    const target = page.locator(await page.evaluate(() => location.hash));
    expect(await target.isVisible()).toBe(true);
    expect(await target.innerText()).toContain('createSingleUseToken');
    expect(requests).toEqual([]);

    await mkdir(screenshots, { recursive: true });
    const path = join(screenshots, 'contract-proxy-report.png');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path, fullPage: true });
    expect((await stat(path)).size).toBeGreaterThan(10_000);
  });
});
