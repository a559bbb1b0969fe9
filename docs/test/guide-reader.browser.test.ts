// end-to-end: a real Chromium reads the guides and the Redoc pages they link to (a Redoc page takes seconds to render on a loaded 2-core machine).
// The guides as a reader meets them, in Chromium: light and dark (the system's preference, and the toggle, which is
// remembered), a phone's screen with the text in its first screen, a contents list and heading anchors, a copy button
// on every sample, the site-wide search (a guide's section and a reference operation, served and from the folder),
// and the links from a guide to the operations it names (its weight: reference-weight.browser.test.ts). Screenshots go to
// test-results/screenshots/ (guide-light.png, guide-dark.png, guide-phone.png, guide-phone-dark.png, search-*.png).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openApiContracts } from '@paykit/contracts';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { extractCodeSamples } from '../scripts/code-samples.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { confirmPage } from '../scripts/reference/assumptions.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { builtDefinition, builtOperations } from './support/built-reference.js';
import { skipBrowserTests } from './support/chromium.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { markdownHeadings } from './support/markdown-headings.js';
import { openOffline } from './support/offline-page.js';
import { readSpecSummary } from './support/spec-operations.js';

// Each test waits on Chromium; a hang still fails within this bound.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const guides = readGuides();
/** A long guide with TypeScript samples: the one the screenshots show. */
const guide = guides.find((g) => markdownHeadings(g.markdown).filter((h) => h.depth === 2).length >= 4 && /```ts/.test(g.markdown)) ?? guides[0]!;
const firstSample = extractCodeSamples([guide])[0];
/** A section of another guide, to search for by its heading. */
const otherGuide = guides.find((g) => g !== guide && markdownHeadings(g.markdown).some((h) => h.depth === 2))!;
const sectionHeading = markdownHeadings(otherGuide.markdown).find((h) => h.depth === 2)!.text;
/** An operation of the payments reference, to search for by its summary. */
const payments = openApiContracts.find((c) => c.name === 'payments')!;
const operation = (await readSpecSummary(join(paths.repoRoot, payments.root))).operations.find((op) => op.operationId === 'createTransaction')!;

const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

const shot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `${name}.png`) });
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
/** A highlighted token's colour, and the dark colour Shiki gave it. */
const tokenColours = (page: Page) =>
  page.$eval('main pre.shiki span[style*="--shiki-dark"]', (span) => ({
    shown: getComputedStyle(span).color,
    dark: getComputedStyle(span).getPropertyValue('--shiki-dark').trim(),
  }));
const rgb = (hex: string) => {
  const n = Number.parseInt(hex.replace('#', '').slice(0, 6), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

async function withContext<T>(options: BrowserContextOptions, run: (context: BrowserContext) => Promise<T>, browser: import('playwright-core').Browser): Promise<T> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

/** Types into the site search and waits for the list of results for that term: the addresses it links. */
async function searchFor(page: Page, term: string): Promise<string[]> {
  await page.locator('#site-search').fill(term);
  await page.waitForFunction((t) => document.getElementById('search-results')?.dataset.term === t, term, { timeout: 30_000 });
  return page.locator('#search-results a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
}

describe.skipIf(skipBrowserTests)(`a guide in Chromium (${guide.page})`, () => {
  const site = useBuiltSite();

  it('follows the system: light colours in light, dark ones (code included) in dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await withContext({ ...desktop, colorScheme }, async (context) => {
        const page = await context.newPage();
        await page.goto(new URL(guide.page, site.url).href);
        await shot(page, `guide-${colorScheme}`);
        const colours = await tokenColours(page);
        if (colorScheme === 'light') {
          expect(await background(page)).toBe('rgb(255, 255, 255)');
          expect(colours.shown).not.toBe(rgb(colours.dark));
        } else {
          expect(await background(page)).toBe('rgb(13, 17, 23)');
          expect(colours.shown).toBe(rgb(colours.dark));
        }
      }, site.browser);
    }
  });

  it('switches theme with the toggle, and remembers the choice on the next page and visit', async () => {
    await withContext({ ...desktop, colorScheme: 'light' }, async (context) => {
      const page = await context.newPage();
      await page.goto(new URL(guide.page, site.url).href);
      const toggle = page.locator('.theme-toggle');
      expect(await toggle.textContent()).toBe('Dark');
      await toggle.click();
      expect(await background(page)).toBe('rgb(13, 17, 23)');
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await page.goto(new URL(otherGuide.page, site.url).href);
      expect(await background(page)).toBe('rgb(13, 17, 23)');
      await page.reload();
      expect(await background(page)).toBe('rgb(13, 17, 23)');
      expect(await page.locator('.theme-toggle').textContent()).toBe('Light');
      await page.locator('.theme-toggle').click();
      await page.reload();
      expect(await background(page)).toBe('rgb(255, 255, 255)');
    }, site.browser);
  });

  it('on a phone, starts the text in the first screen, with nothing scrolling sideways', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await withContext({ ...phone, colorScheme }, async (context) => {
        const page = await context.newPage();
        await page.goto(new URL(guide.page, site.url).href);
        await shot(page, colorScheme === 'light' ? 'guide-phone' : 'guide-phone-dark');
        const firstParagraph = await page.locator('main > p').first().boundingBox();
        expect(firstParagraph, 'the first paragraph').not.toBeNull();
        // Its first lines at least: the paragraph starts in the upper half of the first screen.
        expect(firstParagraph!.y).toBeLessThan(844 / 2);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        // The contents list is folded, the guides' list comes after the text.
        expect(await page.locator('details.toc').getAttribute('open')).toBeNull();
        const [main, guideList] = await Promise.all([page.locator('main').boundingBox(), page.locator('nav.guides').boundingBox()]);
        expect(guideList!.y).toBeGreaterThan(main!.y);
      }, site.browser);
    }
  });

  it('has a contents list of its sections, open on a wide screen, and headings that link to themselves', async () => {
    const opened = await openOffline(site.browser, site.url, guide.page);
    const { page } = opened;
    try {
      const sections = markdownHeadings(guide.markdown).filter((h) => h.depth === 2).map((h) => h.text);
      const toc = page.locator('details.toc');
      expect(await toc.getAttribute('open')).not.toBeNull();
      expect(await toc.locator('> ol > li > a').allTextContents()).toEqual(sections);
      const last = toc.locator('> ol > li > a').last();
      const target = (await last.getAttribute('href'))!;
      await last.click();
      expect(new URL(page.url()).hash).toBe(target);
      const heading = page.locator(`main h2${target}`);
      expect(await heading.textContent()).toBe(sections.at(-1));
      expect(await heading.locator('a.anchor').getAttribute('href')).toBe(target);
      expect(opened.problems).toEqual({ offsiteRequests: [], failedRequests: [], consoleErrors: [] });
    } finally {
      await opened.context.close();
    }
  });

  it('has a copy button on every sample, which copies the sample as written in the guide', async () => {
    expect(firstSample, `${guide.source} has a TypeScript sample`).toBeDefined();
    const opened = await openOffline(site.browser, site.url, guide.page);
    const { page, context } = opened;
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
      await page.locator('main .sample button.copy').first().waitFor({ state: 'attached' });
      const samples = await page.locator('main pre').count();
      expect(samples).toBeGreaterThan(0);
      expect(await page.locator('main .sample > button.copy').count()).toBe(samples);
      const block = page.locator('main .sample[data-language="ts"]').first();
      await block.hover();
      await block.locator('button.copy').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstSample!.code);
      expect(await block.locator('button.copy').textContent()).toBe('Copied');
      await block.screenshot({ path: join(screenshots, 'guide-sample-copied.png') });
      expect(opened.problems).toEqual({ offsiteRequests: [], failedRequests: [], consoleErrors: [] });
    } finally {
      await context.close();
    }
  });

  it.each(['served', 'file://'] as const)('search finds a guide section and a reference operation, and opens it (%s)', async (mode) => {
    const base = mode === 'served' ? site.url : `${pathToFileURL(paths.dist).href}/`;
    await withContext(desktop, async (context) => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('request', (request) => {
        if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) problems.push(`off-site: ${request.url()}`);
      });
      await page.goto(new URL(guide.page, base).href);

      const sectionLinks = await searchFor(page, sectionHeading);
      const section = sectionLinks.find((href) => href.startsWith(new URL(otherGuide.page, base).href + '#'));
      expect(section, `a link to a section of ${otherGuide.page} among ${sectionLinks.join(', ')}`).toBeDefined();
      await shot(page, `search-section-${mode === 'served' ? 'served' : 'file'}`);

      const operationLinks = await searchFor(page, operation.summary);
      const entry = new URL(`${payments.docs.page}#/`, base).href;
      const hit = operationLinks.find((href) => href.startsWith(entry) && href.endsWith(`/${operation.operationId.toLowerCase()}`));
      expect(hit, `a link to ${operation.operationId} among ${operationLinks.join(', ')}`).toBeDefined();
      await shot(page, `search-operation-${mode === 'served' ? 'served' : 'file'}`);
      await page.locator(`#search-results a[href="${hit}"]`).first().click();
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached', timeout: 30_000 });
      const heading = page.locator('h2').filter({ hasText: operation.summary }).first();
      await heading.waitFor({ timeout: 15_000 });
      expect(problems).toEqual([]);
    }, site.browser);
  });

  it(`search finds the "${confirmPage.title}" page by the title of an assumption`, async () => {
    const title = (parse(readFileSync(join(paths.repoRoot, 'specs/payments/assumptions.yaml'), 'utf8')) as Record<string, { title: string }>)[
      'webhook-redelivery'
    ]!.title;
    await withContext(desktop, async (context) => {
      const page = await context.newPage();
      await page.goto(new URL(guide.page, site.url).href);
      const links = await searchFor(page, title);
      const target = new URL(confirmPage.page, site.url).href;
      expect(links.some((href) => href.startsWith(target)), `a link to ${confirmPage.page} among ${links.join(', ')}`).toBe(true);
    }, site.browser);
  });

  it('links every operation a guide names to the operation in the reference', async () => {
    // The links are plain HTML the build wrote (no script adds them): read from the built guides, grouped by the page
    // they open, so that each reference page is loaded once and its operations are then reached by their address.
    const links = new Set<string>();
    for (const g of guides) {
      const html = readFileSync(join(paths.dist, g.page), 'utf8');
      for (const [tag] of html.matchAll(/<a\b[^>]*>/g)) {
        const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
        if (/\bclass="operation"/.test(tag) && href) links.add(href.replace(/&amp;/g, '&'));
      }
    }
    expect(links.size).toBeGreaterThan(5);
    const summaries = new Map(
      openApiContracts.flatMap((c) => builtOperations(builtDefinition(c.docs.page)).map((op) => [`${c.docs.page}/${op.operationId.toLowerCase()}`, (op as { summary?: string }).summary ?? ''])),
    );
    const wrong: string[] = [];
    await withContext(desktop, async (context) => {
      const page = await context.newPage();
      for (const href of [...links].sort()) {
        await page.goto(new URL(href, site.url).href);
        const [file = '', fragment = ''] = href.split('#');
        if (fragment.startsWith('operation-')) {
          if (!(await page.locator(`section#${fragment} h3`).isVisible())) wrong.push(`${href}: no such SOAP operation`);
          continue;
        }
        await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached', timeout: 30_000 });
        const summary = summaries.get(`${file}/${fragment.split('/').at(-1)}`);
        if (!summary) {
          wrong.push(`${href}: no operation of that id`);
          continue;
        }
        const heading = page.locator('h2').filter({ hasText: summary }).first();
        try {
          await heading.waitFor({ timeout: 10_000 });
          // Redoc scrolled to it: the heading is within the first screen.
          await page.waitForFunction((h) => {
            const box = [...document.querySelectorAll('h2')].find((e) => e.textContent?.trim() === h)?.getBoundingClientRect();
            return box !== undefined && box.top >= -5 && box.top < innerHeight;
          }, summary, { timeout: 10_000 });
        } catch {
          wrong.push(`${href}: "${summary}" not shown`);
        }
      }
    }, site.browser);
    expect(wrong).toEqual([]);
  });
});
