// end-to-end: a real Chromium draws every diagram of the built guides, on a desktop and a 390x844 phone, light and dark.
// Each diagram of the built guides, as a reader's browser shows it: offline, with scripts switched off (the page's own
// script adds copy buttons and search, nothing of the diagrams), visible at
// a readable size with every state box or lifeline laid out inside the drawing. One screenshot per diagram goes to
// test-results/screenshots/diagram-<kind>-<name>.png (or PAYKIT_DOCS_SCREENSHOTS).
import { join } from 'node:path';
import type { BrowserContextOptions } from 'playwright-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { diagramMarker } from '../scripts/diagrams/index.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { skipBrowserTests } from './support/chromium.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { openOffline, type OfflinePage } from './support/offline-page.js';

// Each test waits on Chromium; a hang still fails within this bound.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const placed = readGuides().flatMap((guide) =>
  guide.markdown.split('\n').flatMap((line) => {
    const m = diagramMarker.exec(line.trim());
    return m ? [{ page: guide.page, kind: m[1]!, name: m[2]! }] : [];
  }),
);


const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe.skipIf(skipBrowserTests)('diagrams in Chromium', () => {
  const site = useBuiltSite();

  it('the guides place diagrams', () => {
    expect(placed.length).toBeGreaterThan(0);
  });

  describe.each([
    { screen: 'desktop', scheme: 'light', options: { ...desktop, colorScheme: 'light' } },
    { screen: 'desktop', scheme: 'dark', options: { ...desktop, colorScheme: 'dark' } },
    { screen: 'phone', scheme: 'light', options: { ...phone, colorScheme: 'light' } },
    { screen: 'phone', scheme: 'dark', options: { ...phone, colorScheme: 'dark' } },
  ] as const)('on a $screen, $scheme', ({ screen, scheme, options }) => {
    // One page with scripts off for the whole block, moved from guide to guide (several diagrams share a guide).
    let opened: OfflinePage | undefined;
    const show = async (file: string): Promise<OfflinePage> => {
      if (!opened) opened = await openOffline(site.browser, site.url, file, { ...options, javaScriptEnabled: false });
      else if (!opened.page.url().endsWith(`/${file}`)) await opened.page.goto(new URL(file, site.url).href, { waitUntil: 'load' });
      return opened;
    };
    afterAll(async () => {
      await opened?.context.close();
    });

    it.each(placed.map((d) => ({ ...d, label: `${d.kind} ${d.name} on ${d.page}` })))('$label is drawn, without script', async ({ page: file, kind, name }) => {
      const { page, problems } = await show(file);
      // The load event has passed (openOffline and goto wait for it); with scripts off nothing is requested after it.
      // No diagram library: the page's scripts are the site's own (the site script, and inline theme and contents
      // switches), and the diagram is drawn with scripts off.
      const sources = await page.locator('script[src]').evaluateAll((scripts) => scripts.map((s) => s.getAttribute('src')));
      expect(sources.filter((src) => !/^assets\/site\.[0-9a-f]{16}\.js$/.test(src ?? '')), 'scripts other than the site script').toEqual([]);
      const figure = page.locator(`figure.diagram[data-diagram="${kind} ${name}"]`);
      expect(await figure.count()).toBe(1);
      const svg = figure.locator('svg');
      const box = await svg.boundingBox();
      expect(box?.width, 'drawn width').toBeGreaterThan(300);
      expect(box?.height, 'drawn height').toBeGreaterThan(150);
      // Every shape sits inside the drawing: nothing is cut off at its edges.
      const outside = await svg.evaluate((element) => {
        const frame = element.getBoundingClientRect();
        return [...element.querySelectorAll('[data-state], [data-actor], [data-legend], [data-step]')]
          .map((node) => ({ node: node.getAttribute('data-state') ?? node.getAttribute('data-actor') ?? node.getAttribute('data-legend') ?? node.getAttribute('data-step'), rect: node.getBoundingClientRect() }))
          .filter(({ rect }) => rect.left < frame.left - 1 || rect.right > frame.right + 1 || rect.top < frame.top - 1 || rect.bottom > frame.bottom + 1)
          .map(({ node }) => node);
      });
      expect(outside, 'shapes outside the drawing').toEqual([]);
      // Readable: no label drawn smaller than 11 CSS pixels (a wide diagram scrolls sideways instead of shrinking).
      const smallest = await svg.evaluate((element) =>
        Math.min(...[...element.querySelectorAll('text')].map((t) => (t as SVGTextElement).getBoundingClientRect().height > 0 ? Number(t.getAttribute('font-size')) * (element.getBoundingClientRect().width / (element as SVGSVGElement).viewBox.baseVal.width) : Infinity)),
      );
      expect(smallest, 'the smallest label, in CSS pixels').toBeGreaterThanOrEqual(11);
      // Drawn for the scheme: dark ink on the light page, and inverted (light ink) on the dark page, without script.
      const pageIsDark = await page.evaluate(() => {
        const [r = 0, g = 0, b = 0] = (getComputedStyle(document.body).backgroundColor.match(/\d+/g) ?? []).map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
      });
      expect(pageIsDark, 'the page follows the scheme').toBe(scheme === 'dark');
      expect(await svg.evaluate((element) => getComputedStyle(element).filter), 'the drawing is inverted on a dark page').toMatch(scheme === 'dark' ? /invert\(0\.92\)/ : /^none$/);
      // The page itself never scrolls sideways; the figure does, and says so.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').toBeLessThanOrEqual(options.viewport!.width);
      if (screen === 'phone' && box!.width > options.viewport!.width) {
        expect(await figure.evaluate((f) => f.scrollWidth > f.clientWidth && getComputedStyle(f).overflowX === 'auto'), 'the figure scrolls sideways').toBe(true);
        expect(await figure.evaluate((f) => getComputedStyle(f).backgroundImage), 'a shadow cues the hidden part').toContain('gradient');
      }
      expect(await svg.getAttribute('role')).toBe('img');
      expect((await svg.locator('title').first().textContent())?.length).toBeGreaterThan(0);
      // A shot for a reviewer's eyes (it asserts nothing): the light drawings; the dark ones on a phone only.
      if (scheme === 'light' || screen === 'phone') {
        await figure.scrollIntoViewIfNeeded();
        await figure.screenshot({ path: join(screenshots, `diagram-${kind}-${name}${screen === 'phone' ? '-phone' : ''}${scheme === 'dark' ? '-dark' : ''}.png`) });
      }
      expect(problems.offsiteRequests).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });
});
