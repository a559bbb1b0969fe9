// end-to-end: a real Chromium loads the Redoc pages (2.3 MB of renderer each) with its HTTP cache.
// The Redoc reference pages share one renderer script. In Chromium, with its HTTP cache (so without the request
// interception of openOffline, which turns the cache off): opening one reference page after another transfers under
// the budget, the shared script coming from the cache. And opened from the folder (file://), as the site always could
// be, each page still runs Redoc (search works) without an error. Next to them, the guides: each one's first load
// (an empty cache) stays under its budget, and the site search's index is fetched only once a search starts.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { controlContracts, openApiContracts } from '@paykit/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GUIDE_FIRST_LOAD_BUDGET_BYTES, NEXT_REFERENCE_PAGE_BUDGET_BYTES } from '../scripts/page-weight.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { skipBrowserTests } from './support/chromium.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { mapInParallel } from './support/parallel.js';
import { readSpecSummary } from './support/spec-operations.js';

// Each test waits on Chromium; a hang still fails within this bound.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const redocPages = [...openApiContracts, ...controlContracts].map((c) => c.docs.page);
/** An operation summary of each page's contract, to search for. */
const searchTerms = new Map(
  await Promise.all([...openApiContracts, ...controlContracts].map(async (c) => [c.docs.page, (await readSpecSummary(join(paths.repoRoot, c.root))).operations[0]?.summary ?? ''] as const)),
);
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

  type Transfer = Awaited<ReturnType<typeof transfers>>[number];
  interface Visit {
    first: Transfer[];
    /** What each other page transferred when opened after `first`, by page. */
    next: Map<string, Transfer[]>;
    offsite: string[];
  }
  /**
   * Per first page: one browser context (one HTTP cache) opens it, then each other reference page in turn. What a page
   * opened after the first transfers does not depend on which others came between: the pages share only the renderer
   * and the site script, which the first page already brought into the cache (each pair's test checks that).
   */
  const visits = new Map<string, Visit>();
  beforeAll(async () => {
    // Two first pages at a time, each in its own context: Chromium renders them in parallel.
    const done = await mapInParallel(redocPages, 2, visitAfter);
    redocPages.forEach((page, i) => visits.set(page, done[i]!));
  }, 120_000);
  const visit = (first: string): Visit => {
    const found = visits.get(first);
    if (!found) throw new Error(`${first} was not visited`);
    return found;
  };
  async function visitAfter(first: string): Promise<Visit> {
    const context = await site.browser.newContext({ serviceWorkers: 'block' });
    const offsite: string[] = [];
    try {
      const page = await context.newPage();
      page.on('request', (request) => {
        if (!request.url().startsWith(site.url) && !/^(data|blob):/.test(request.url())) offsite.push(request.url());
      });
      // The load event: the deferred renderer script has arrived (and is cached) by then.
      await page.goto(new URL(first, site.url).href, { waitUntil: 'load' });
      const visit: Visit = { first: await transfers(page), next: new Map(), offsite };
      console.log(`${first} first load: ${sum(visit.first)} bytes transferred`);
      for (const second of redocPages.filter((p) => p !== first)) {
        await page.goto(new URL(second, site.url).href, { waitUntil: 'load' });
        // Everything the page asks for while Redoc renders it counts too.
        await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
        visit.next.set(second, await transfers(page));
      }
      return visit;
    } finally {
      await context.close();
    }
  }
  const rendererScript = (visit: Transfer[]) => visit.find((t) => /\/assets\/redoc\.standalone\.[0-9a-f]+\.js$/.test(t.url));
  const sum = (visit: Transfer[]) => visit.reduce((total, t) => total + t.transferSize, 0);

  it.each(redocPages.flatMap((first) => redocPages.filter((second) => second !== first).map((second) => ({ first, second }))))(
    '$second after $first transfers under the budget, the renderer from the cache',
    async ({ first, second }) => {
      const { first: firstVisit, next, offsite } = visit(first);
      const script = rendererScript(firstVisit);
      expect(script?.transferSize, 'the first page downloads the shared renderer').toBeGreaterThan(100_000);
      const secondVisit = next.get(second) ?? [];
      const cached = secondVisit.find((t) => t.url === script?.url);
      expect(cached?.decodedBodySize, 'the second page uses the same renderer').toBe(script?.decodedBodySize);
      expect(cached?.transferSize, 'and takes it from the cache').toBe(0);
      // Nothing else came from a cache the pages opened in between could have filled.
      const fromCache = secondVisit.filter((t) => t.transferSize === 0 && t.url.startsWith(site.url)).map((t) => t.url);
      expect(fromCache.filter((url) => !firstVisit.some((t) => t.url === url)), `cached, but not by ${first}`).toEqual([]);
      const total = sum(secondVisit);
      console.log(`${second} after ${first}: ${total} bytes transferred (first page: ${sum(firstVisit)})`);
      expect(total).toBeLessThan(NEXT_REFERENCE_PAGE_BUDGET_BYTES);
      expect(offsite).toEqual([]);
    },
  );

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
    const guides = readGuides();
    // Each guide in a context of its own (an empty cache), three at a time.
    const loads = await mapInParallel(guides, 3, async (guide, index) => {
      const context = await site.browser.newContext({ serviceWorkers: 'block' });
      try {
        const page = await context.newPage();
        await page.goto(new URL(guide.page, site.url).href, { waitUntil: 'load' });
        const first = await transfers(page);
        const total = first.reduce((sum, t) => sum + t.transferSize, 0);
        expect(first.some((t) => /\/assets\/site\.[0-9a-f]+\.js$/.test(t.url) && t.transferSize > 0), `${guide.page}: the site script is part of it`).toBe(true);
        expect(first.filter((t) => t.url.includes('/pagefind/')), `${guide.page}: nothing of the search index before a search`).toEqual([]);
        expect(total, `${guide.page} first load`).toBeLessThanOrEqual(GUIDE_FIRST_LOAD_BUDGET_BYTES);
        if (index > 0) return `${guide.page} ${total}`;
        await page.locator('#site-search').fill('refund');
        await page.locator('#search-results a').first().waitFor({ timeout: 20_000 });
        const searched = await transfers(page);
        const searchIndex = searched.filter((t) => t.url.includes('/pagefind/')).reduce((sum, t) => sum + t.transferSize, 0);
        expect(searchIndex, 'the search loads the index').toBeGreaterThan(0);
        return `${guide.page} ${total} (its first search: ${searchIndex} more)`;
      } finally {
        await context.close();
      }
    });
    const figures = loads;
    console.log(`guides, bytes transferred on a first load (gzip): ${figures.join(', ')}`);
  });
});
