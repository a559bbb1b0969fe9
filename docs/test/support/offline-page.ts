// Opens a page of the site with the network cut off: only the site's own origin (and inline data:/blob: URLs) may
// be reached. Anything else is aborted and recorded, as are failed first-party requests, console errors and
// uncaught page errors, so a test can assert that a page is clean.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

export interface PageProblems {
  offsiteRequests: string[];
  failedRequests: string[];
  consoleErrors: string[];
}

export interface OfflinePage {
  page: Page;
  context: BrowserContext;
  problems: PageProblems;
}

const inlineSchemes = new Set(['data:', 'blob:', 'about:']);

/** `options`: more of the browser context's options (`javaScriptEnabled: false`...). */
export async function openOffline(browser: Browser, siteUrl: string, path: string, options: BrowserContextOptions = {}): Promise<OfflinePage> {
  const origin = new URL(siteUrl).origin;
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 }, ...options });
  const problems: PageProblems = { offsiteRequests: [], failedRequests: [], consoleErrors: [] };

  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || inlineSchemes.has(url.protocol)) return route.continue();
    problems.offsiteRequests.push(url.href);
    return route.abort('blockedbyclient');
  });

  const page = await context.newPage();
  const firstParty = (url: string) => url.startsWith(origin);
  page.on('requestfailed', (request) => {
    if (firstParty(request.url())) problems.failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (firstParty(response.url()) && response.status() >= 400) problems.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));

  await page.goto(new URL(path, siteUrl).href, { waitUntil: 'load' });
  return { page, context, problems };
}
