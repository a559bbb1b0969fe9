// The Redoc reference pages share one renderer script. In Chromium, with its HTTP cache (so without the request
// interception of openOffline, which turns the cache off): opening one reference page after another transfers under
// the budget, the shared script coming from the cache. And opened from the folder (file://), as the site always could
// be, each page still runs Redoc (search works) without an error. Next to them, the guides: each one's first load
// (an empty cache) stays under its budget, and the site search's index is fetched only once a search starts.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { controlContracts, openApiContracts } from '@paykit/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { GUIDE_FIRST_LOAD_BUDGET_BYTES, NEXT_REFERENCE_PAGE_BUDGET_BYTES } from '../scripts/page-weight.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { skipBrowserTests } from './support/chromium.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { readSpecSummary } from './support/spec-operations.js';

const redocPages = [...openApiContracts, ...controlContracts].map((c) => c.docs.page);
/** An operation summary of each page's contract, to search for. */
const searchTerms = new Map(
  await Promise.all([...openApiContracts, ...controlContracts].map(async (c) => [c.docs.page, (await readSpecSummary(join(paths.repoRoot, c.root))).operations[0]?.summary ?? ''] as const)),
);
const pairs = redocPages.flatMap((first) => redocPages.filter((second) => second !== first).map((second) => ({ first, second })));


/** Bytes the page's navigation and resources took from the network (0 for what came from the cache), by URL. */
const transfers = (page: Page) =>
  page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => {
      const timing = e as PerformanceResourceTiming;
      return { url: timing.name, transferSize: timing.transferSize, decodedBodySize: timing.decodedBodySize };
    }),
  );

describe.skipIf(skipBrowserTests)('Redoc reference pages in Chromium, with its cache', () => {
  const site = useBuiltSite();

  it.each(pairs)('$second after $first transfers under the budget, the renderer from the cache', async ({ first, second }) => {
    const context = await site.browser.newContext({ serviceWorkers: 'block' });
    const offsite: string[] = [];
    try {
      const page = await context.newPage();
      page.on('request', (request) => {
        if (!request.url().startsWith(site.url) && !/^(data|blob):/.test(request.url())) offsite.push(request.url());
      });
      await page.goto(new URL(first, site.url).href, { waitUntil: 'load' });
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
      const firstVisit = await transfers(page);
      const script = firstVisit.find((t) => /\/assets\/redoc\.standalone\.[0-9a-f]+\.js$/.test(t.url));
      expect(script?.transferSize, 'the first page downloads the shared renderer').toBeGreaterThan(100_000);

      await page.goto(new URL(second, site.url).href, { waitUntil: 'load' });
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
      const secondVisit = await transfers(page);
      const cached = secondVisit.find((t) => t.url === script?.url);
      expect(cached?.decodedBodySize, 'the second page uses the same renderer').toBe(script?.decodedBodySize);
      expect(cached?.transferSize, 'and takes it from the cache').toBe(0);
      const total = secondVisit.reduce((sum, t) => sum + t.transferSize, 0);
      console.log(`${second} after ${first}: ${total} bytes transferred (first page: ${firstVisit.reduce((sum, t) => sum + t.transferSize, 0)})`);
      expect(total).toBeLessThan(NEXT_REFERENCE_PAGE_BUDGET_BYTES);
      expect(offsite).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(redocPages)('%s works opened from the folder (file://)', async (pageFile) => {
    const context = await site.browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    const offsite: string[] = [];
    try {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('request', (request) => {
        if (!/^(file|data|blob):/.test(request.url())) offsite.push(request.url());
      });
      await page.goto(pathToFileURL(join(paths.dist, pageFile)).href, { waitUntil: 'load' });
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached', timeout: 20_000 });
      // Search only works once Redoc runs: the prerendered page alone has no results.
      await page.getByText('Search', { exact: false }).first().click();
      const term = searchTerms.get(pageFile) ?? '';
      await page.getByPlaceholder('Search docs...').fill(term);
      await page.locator('a[data-component-name="Search/SearchItem"]').filter({ hasText: term }).first().waitFor({ timeout: 10_000 });
      await page.screenshot({ path: join(screenshots, `${pageFile.replace('.html', '')}-file-url.png`) });
      expect(errors).toEqual([]);
      expect(offsite).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it(`each guide's first load transfers at most ${GUIDE_FIRST_LOAD_BUDGET_BYTES / 1000} kB, the search index only once a search starts`, async () => {
    const figures: string[] = [];
    for (const guide of readGuides()) {
      const context = await site.browser.newContext({ serviceWorkers: 'block' });
      try {
        const page = await context.newPage();
        await page.goto(new URL(guide.page, site.url).href, { waitUntil: 'load' });
        const first = await transfers(page);
        const total = first.reduce((sum, t) => sum + t.transferSize, 0);
        figures.push(`${guide.page} ${total}`);
        expect(first.some((t) => /\/assets\/site\.[0-9a-f]+\.js$/.test(t.url) && t.transferSize > 0), 'the site script is part of it').toBe(true);
        expect(first.filter((t) => t.url.includes('/pagefind/')), 'nothing of the search index before a search').toEqual([]);
        expect(total, `${guide.page} first load`).toBeLessThanOrEqual(GUIDE_FIRST_LOAD_BUDGET_BYTES);
        if (figures.length === 1) {
          await page.locator('#site-search').fill('refund');
          await page.locator('#search-results a').first().waitFor({ timeout: 20_000 });
          const searched = await transfers(page);
          const index = searched.filter((t) => t.url.includes('/pagefind/')).reduce((sum, t) => sum + t.transferSize, 0);
          expect(index, 'the search loads the index').toBeGreaterThan(0);
          figures.push(`(its first search: ${index} more)`);
        }
      } finally {
        await context.close();
      }
    }
    const reference = await site.browser.newContext({ serviceWorkers: 'block' });
    try {
      const page = await reference.newPage();
      await page.goto(new URL(redocPages[0]!, site.url).href, { waitUntil: 'load' });
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
      figures.push(`next to ${redocPages[0]} first load ${(await transfers(page)).reduce((sum, t) => sum + t.transferSize, 0)}`);
    } finally {
      await reference.close();
    }
    console.log(`guides, bytes transferred on a first load (gzip): ${figures.join(', ')}`);
  });
});
