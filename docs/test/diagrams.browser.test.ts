// Each diagram of the built guides, as a reader's browser shows it: offline, with scripts switched off (the page's own
// script adds copy buttons and search, nothing of the diagrams), visible at
// a readable size with every state box or lifeline laid out inside the drawing. One screenshot per diagram goes to
// test-results/screenshots/diagram-<kind>-<name>.png (or PAYKIT_DOCS_SCREENSHOTS).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagramMarker } from '../scripts/diagrams/index.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { skipBrowserTests } from './support/chromium.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { openOffline } from './support/offline-page.js';

const placed = readGuides().flatMap((guide) =>
  guide.markdown.split('\n').flatMap((line) => {
    const m = diagramMarker.exec(line.trim());
    return m ? [{ page: guide.page, kind: m[1]!, name: m[2]! }] : [];
  }),
);


describe.skipIf(skipBrowserTests)('diagrams in Chromium', () => {
  const site = useBuiltSite();

  it('the guides place diagrams', () => {
    expect(placed.length).toBeGreaterThan(0);
  });

  it.each(placed.map((d) => ({ ...d, label: `${d.kind} ${d.name} on ${d.page}` })))('$label is drawn, without script', async ({ page: file, kind, name }) => {
    const opened = await openOffline(site.browser, site.url, file, { javaScriptEnabled: false });
    const { page, problems } = opened;
    try {
      await page.waitForLoadState('networkidle');
      // No diagram library: the page's scripts are the site's own (the site script, and inline theme and contents
      // switches), and the diagram is drawn with scripts off.
      const sources = await page.locator('script[src]').evaluateAll((scripts) => scripts.map((s) => s.getAttribute('src')));
      expect(sources.filter((src) => !/^assets\/site\.[0-9a-f]{16}\.js$/.test(src ?? '')), 'scripts other than the site script').toEqual([]);
      const figure = page.locator(`figure.diagram[data-diagram="${kind} ${name}"]`);
      await expect.poll(() => figure.count()).toBe(1);
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
      expect(await svg.getAttribute('role')).toBe('img');
      expect((await svg.locator('title').first().textContent())?.length).toBeGreaterThan(0);
      await figure.scrollIntoViewIfNeeded();
      await figure.screenshot({ path: join(screenshots, `diagram-${kind}-${name}.png`) });
      expect(problems.offsiteRequests).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    } finally {
      await opened.context.close();
    }
  });
});
