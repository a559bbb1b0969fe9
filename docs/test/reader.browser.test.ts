// end-to-end: a real Chromium reads the site as a reader does, on a desktop and on a 390x844 phone, in light and dark.
// The reader's side of issue 34: the SOAP page's copy buttons take a mouse click and its samples are highlighted; a
// link of Redoc's sidebar works opened as a page of its own; the theme toggle works on a Redoc page and is kept; the
// guides are one tap away on a phone's first screen; the search answers the keyboard (a shortcut, the arrows, Enter);
// an address with no page gets the site's 404 page; a guide ends with its previous and next guides, and its contents
// list marks the section being read. Each screen and scheme has one browser context, its pages reused test to test.
// Screenshots: test-results/screenshots/reader-*.png.
import { join } from 'node:path';
import { soapContracts } from '@paykit/contracts';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readGuides } from '../scripts/guides.mjs';
import { builtSoapSamples } from './support/built-reference.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { skipBrowserTests } from './support/chromium.js';

// Each test waits on Chromium (a Redoc page takes seconds to render on a loaded machine); a hang still fails.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const screens = [
  { name: 'desktop, light', options: { ...desktop, colorScheme: 'light' as const } },
  { name: 'desktop, dark', options: { ...desktop, colorScheme: 'dark' as const } },
  { name: 'phone, light', options: { ...phone, colorScheme: 'light' as const } },
  { name: 'phone, dark', options: { ...phone, colorScheme: 'dark' as const } },
];
const isPhone = (name: string) => name.startsWith('phone');
const guides = readGuides();
const soap = soapContracts[0]!.docs.page;

/** Perceived lightness (0 dark to 1 light) of a CSS colour such as `rgb(13, 17, 23)`. */
const lightness = (colour: string) => {
  const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};
/** The background a Redoc page paints behind its text (Redoc colours its own panels, not the body). */
const redocBackground = (page: Page) =>
  page.evaluate(() => {
    const middle = document.querySelector('[data-testid="middle-panel"]') ?? document.querySelector('main') ?? document.body;
    for (let node: Element | null = middle; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      if (colour && colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  });

describe.skipIf(skipBrowserTests)('the site as a reader meets it', () => {
  const site = useBuiltSite();

  describe.each(screens)('on a $name screen', ({ name, options }) => {
    let context: BrowserContext | undefined;
    const openPage = async (): Promise<Page> => {
      context ??= await site.browser.newContext({ serviceWorkers: 'block', ...options });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
      return context.pages()[0] ?? (await context.newPage());
    };
    afterAll(async () => {
      await context?.close();
    });
    const shot = (page: Page, what: string) => page.screenshot({ path: join(screenshots, `reader-${what}-${name.replace(/, /g, '-')}.png`) });

    it('copies a SOAP sample with a mouse click on its button, and shows it highlighted', async () => {
      const page = await openPage();
      await page.goto(new URL(soap, site.url).href);
      const [operation, blocks] = [...builtSoapSamples(soap)][0]!;
      const sample = page.locator(`section#operation-${operation} .sample-request`);
      await sample.scrollIntoViewIfNeeded();
      await sample.hover();
      // A real click at the button's centre: Playwright refuses it if the code is painted over the button.
      await sample.locator('button.copy').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(blocks.request);
      expect(await sample.locator('button.copy').textContent()).toBe('Copied');
      expect(await sample.locator('pre.shiki span[style*="--shiki-dark"]').count(), 'highlighted tokens').toBeGreaterThan(5);
      expect(await page.locator(`section#operation-${operation} .sample-call pre.shiki span[style*="--shiki-dark"]`).count()).toBeGreaterThan(5);
      await shot(page, 'soap-copied');
    });

    it('finds by keyboard: "/" or Ctrl+K to the search box, the arrows to a result, Enter to open it', async () => {
      const page = await openPage();
      const guide = guides[1]!;
      await page.goto(new URL(guide.page, site.url).href);
      const input = page.locator('#site-search');
      await page.locator('main h1').click(); // the page has the focus, not the box
      await page.keyboard.press('/');
      expect(await input.evaluate((e) => e === document.activeElement), '"/" focuses the search').toBe(true);
      await page.locator('main h1').click();
      await page.keyboard.press('Control+K');
      expect(await input.evaluate((e) => e === document.activeElement), 'Ctrl+K focuses the search').toBe(true);
      await page.keyboard.type('refund');
      await page.waitForFunction(() => document.getElementById('search-results')?.dataset.term === 'refund', undefined, { timeout: 30_000 });
      const links = await page.locator('#search-results a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(links.length, 'results').toBeGreaterThan(1);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.locator('#search-results li.active a').first().evaluate((a) => (a as HTMLAnchorElement).href)).toBe(links[1]);
      await shot(page, 'search-keyboard');
      await Promise.all([page.waitForURL(links[1]!), page.keyboard.press('Enter')]);
      expect(page.url()).toBe(links[1]);
    });

    it('answers an address with no page with the site\'s 404 page, from any folder', async () => {
      const page = await openPage();
      for (const path of ['no-such-guide.html', 'an/old/folder/page.html']) {
        const response = await page.goto(new URL(path, site.url).href);
        expect(response?.status(), path).toBe(404);
        expect(await page.locator('main h1').textContent()).toBe('Page not found');
        // Styled and working: the site's colours for the scheme, and the way home.
        const dark = options.colorScheme === 'dark';
        expect(lightness(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)) < 0.5).toBe(dark);
        await Promise.all([page.waitForURL(new URL('index.html', site.url).href), page.locator('main a[href="index.html"]').click()]);
      }
    });

    it(isPhone(name) ? 'reaches the guides from the first screen, through the menu of a bar that leaves room for the text' : 'shows the guides beside the text', async () => {
      const page = await openPage();
      const guide = guides[2]!;
      await page.goto(new URL(guide.page, site.url).href);
      const viewport = options.viewport!;
      if (!isPhone(name)) {
        const list = await page.locator('nav.guides a').first().boundingBox();
        expect(list!.y + list!.height).toBeLessThan(viewport.height);
        return;
      }
      const bar = await page.locator('nav.site-bar').boundingBox();
      expect(bar!.height, 'the bar\'s height').toBeLessThanOrEqual(viewport.height * 0.2);
      const menu = page.locator('nav.site-bar .site-menu summary');
      const button = await menu.boundingBox();
      expect(button!.y + button!.height).toBeLessThan(viewport.height);
      await menu.click();
      const target = page.locator(`nav.site-bar .menu-panel a[href="${guides[3]!.page}"]`);
      await target.scrollIntoViewIfNeeded();
      const link = await target.boundingBox();
      expect(link!.y + link!.height, 'the guide\'s link in the open menu').toBeLessThan(viewport.height);
      await shot(page, 'phone-menu');
      await Promise.all([page.waitForURL(new URL(guides[3]!.page, site.url).href), target.click()]);
      expect(await page.locator('main h1').textContent()).toBe(guides[3]!.title);
    });
  });

  // Every screen and scheme: the links opened as pages of their own (in tabs at once: each renders on its own), then
  // the toggle.
  describe.each(screens)('a Redoc page on a $name screen', ({ name, options }) => {
    let context: BrowserContext | undefined;
    afterAll(async () => {
      await context?.close();
    });

    it('keeps its links working opened as pages of their own, and follows the theme toggle, remembered', async () => {
      context = await site.browser.newContext({ serviceWorkers: 'block', ...options });
      const page = await context.newPage();
      await page.goto(new URL('payments.html', site.url).href);
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
      // No link of the page leads to the server's root.
      expect(await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([]);
      // A sidebar link (a section's, a tag's, then an operation's) opened in a new tab shows its section.
      const sectionHref = await page.locator('a[href="#/section/rules-of-the-reference"]').first().getAttribute('href');
      const tagHref = await page.locator('a[href="#/transactions"]').first().getAttribute('href');
      expect([sectionHref, tagHref]).toEqual(['#/section/rules-of-the-reference', '#/transactions']);
      if (!isPhone(name)) {
        await page.getByRole('link', { name: 'Transactions', exact: true }).first().click();
        expect(await page.locator('a[href="#/transactions/createtransaction"]').first().getAttribute('href')).toBe('#/transactions/createtransaction');
      }
      const tabs = [
        [`payments.html${sectionHref}`, 'Rules of the reference'],
        [`payments.html${tagHref}`, 'Transactions'],
        ['payments.html#/transactions/createtransaction', 'Take a payment or change a payment'],
      ] as const;
      await Promise.all(
        tabs.map(async ([href, heading]) => {
          const tab = await context!.newPage();
          await tab.goto(new URL(href, site.url).href);
          await tab.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
          await tab.locator('h2').filter({ hasText: heading }).first().waitFor({ timeout: 15_000 });
          // Shown: scrolled to, not only somewhere in the page.
          await tab.waitForFunction((heading) => [...document.querySelectorAll('h2')].some((h) => h.textContent?.trim() === heading && h.getBoundingClientRect().top < innerHeight && h.getBoundingClientRect().bottom > 0), heading, { timeout: 15_000 });
          await tab.close();
        }),
      );

      // The toggle: Redoc follows it at once, and the choice holds on the next visit and on our own pages.
      const startedDark = options.colorScheme === 'dark';
      expect(lightness(await redocBackground(page)) < 0.5, 'Redoc follows the system at first').toBe(startedDark);
      await page.locator('.theme-toggle').click();
      expect(lightness(await redocBackground(page)) < 0.5, 'after the toggle').toBe(!startedDark);
      await page.screenshot({ path: join(screenshots, `reader-redoc-toggled-${name.replace(/, /g, '-')}.png`) });
      await page.reload();
      await page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
      expect(lightness(await redocBackground(page)) < 0.5, 'after a reload').toBe(!startedDark);
      await page.goto(new URL(guides[0]!.page, site.url).href);
      expect(lightness(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)) < 0.5, 'on a guide').toBe(!startedDark);
    });
  });

  describe('a guide on a desktop, light', () => {
    let context: BrowserContext | undefined;
    afterAll(async () => {
      await context?.close();
    });

    it('ends with its previous and next guides, marks the section being read, and shows our assumptions as callouts', async () => {
      context = await site.browser.newContext({ serviceWorkers: 'block', ...screens[0]!.options });
      const page = await context.newPage();
      const at = guides.findIndex((g) => /our assumption about signatures/i.test(g.markdown));
      const guide = guides[at]!;
      await page.goto(new URL(guide.page, site.url).href);
      expect(await page.locator('.pager a[rel="prev"]').getAttribute('href')).toBe(guides[at - 1]!.page);
      expect(await page.locator('.pager a[rel="next"]').getAttribute('href')).toBe(guides[at + 1]!.page);

      const sections = await page.locator('details.toc > ol > li > a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash));
      const target = sections[2]!;
      await page.locator(`main [id="${decodeURIComponent(target.slice(1))}"]`).evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await page.waitForFunction((hash) => document.querySelector('details.toc a[aria-current="true"]')?.getAttribute('href') === hash, target, { timeout: 10_000 });

      const callout = page.locator('main blockquote.assumption').first();
      expect(await callout.evaluate((b) => getComputedStyle(b, '::before').content)).toContain('To confirm with the operator');
    });
  });
});
