// Page weight: the landing page, the guides and the SOAP reference (pages we render ourselves) stay under budget, and
// a Redoc reference page opened after another costs little, the renderer they share being cached (the browser test
// test/reference-weight.browser.test.ts measures the same in Chromium).
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlContracts, openApiContracts } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { precompress } from '../scripts/precompress.mjs';
import { GUIDE_FIRST_LOAD_BUDGET_BYTES, GUIDE_IMAGE_BUDGET_BYTES, GUIDE_IMAGES_BUDGET_BYTES, NEXT_REFERENCE_PAGE_BUDGET_BYTES, OWN_PAGE_BUDGET_BYTES, gzipBytesAfter, measurePageWeights } from '../scripts/page-weight.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';

describe('measurePageWeights', () => {
  it('counts a page and the local files it references, not remote or linked pages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-docs-weight-'));
    try {
      const html = '<script src="app.js"></script><img src="https://example.com/x.png"><a href="other.html">x</a><link rel="stylesheet" href="site.css">';
      writeFileSync(join(dir, 'page.html'), html);
      writeFileSync(join(dir, 'app.js'), 'x'.repeat(1000));
      writeFileSync(join(dir, 'site.css'), 'y'.repeat(500));
      writeFileSync(join(dir, 'other.html'), 'z'.repeat(10_000));
      const page = measurePageWeights(dir).find((row) => row.page === 'page.html');
      expect(page?.bytes).toBe(Buffer.byteLength(html) + 1500);
      expect(page?.assets.map((a) => a.slice(dir.length + 1)).sort()).toEqual(['app.js', 'site.css']);
      expect(page?.gzipBytes).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts the gzip copy the server sends, or the file itself where the build made none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-docs-weight-'));
    try {
      writeFileSync(join(dir, 'page.html'), `<script src="app.js"></script><img src="logo.png">${'<p>text</p>'.repeat(100)}`);
      writeFileSync(join(dir, 'app.js'), 'x();'.repeat(1000));
      writeFileSync(join(dir, 'logo.png'), Buffer.alloc(3000, 1));
      const before = measurePageWeights(dir).find((row) => row.page === 'page.html');
      precompress(dir);
      const page = measurePageWeights(dir).find((row) => row.page === 'page.html');
      const size = (file: string) => statSync(join(dir, file)).size;
      expect(page?.htmlGzipBytes).toBe(size('page.html.gz'));
      expect(page?.gzipBytes).toBe(size('page.html.gz') + size('app.js.gz') + size('logo.png'));
      expect(before?.gzipBytes).toBe(size('page.html') + size('app.js') + size('logo.png'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts a lazily loaded image apart, not in what the page sends first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-docs-weight-'));
    try {
      const html = '<img src="shot.png" alt="a view" loading="lazy"><img src="logo.png">';
      writeFileSync(join(dir, 'page.html'), html);
      writeFileSync(join(dir, 'shot.png'), Buffer.alloc(5000, 1));
      writeFileSync(join(dir, 'logo.png'), Buffer.alloc(300, 1));
      const page = measurePageWeights(dir).find((row) => row.page === 'page.html');
      expect(page?.bytes).toBe(Buffer.byteLength(html) + 300);
      expect(page?.gzipBytes).toBe(Buffer.byteLength(html) + 300);
      expect(page?.lazyAssets.map((a) => a.slice(dir.length + 1))).toEqual(['shot.png']);
      expect(page?.lazyBytes).toBe(5000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts a file shared with the page opened before only once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-docs-weight-'));
    try {
      writeFileSync(join(dir, 'shared.js'), 'shared();'.repeat(1000));
      writeFileSync(join(dir, 'own.js'), 'own();'.repeat(500));
      writeFileSync(join(dir, 'a.html'), '<script src="shared.js"></script>');
      writeFileSync(join(dir, 'b.html'), '<script src="shared.js"></script><script src="own.js"></script>');
      const weights = measurePageWeights(dir);
      const b = weights.find((row) => row.page === 'b.html');
      const ownJs = Object.entries(b?.assetGzipBytes ?? {}).find(([file]) => file.endsWith('own.js'))?.[1] ?? 0;
      expect(ownJs).toBeGreaterThan(0);
      expect(gzipBytesAfter(weights, 'a.html', 'b.html')).toBe((b?.htmlGzipBytes ?? 0) + ownJs);
      expect(gzipBytesAfter(weights, 'b.html', 'b.html')).toBe(b?.htmlGzipBytes);
      expect(b?.gzipBytes).toBeGreaterThan(gzipBytesAfter(weights, 'a.html', 'b.html'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('built site weight', () => {
  const redoclyPages = new Set([...openApiContracts, ...controlContracts].map((c) => c.docs.page));
  const ownPages = () => measurePageWeights(paths.dist).filter((row) => !redoclyPages.has(row.page));

  it('has the landing page among the pages we render', () => {
    expect(existsSync(join(paths.dist, 'index.html')), `nothing built in ${paths.dist}: run the docs build first`).toBe(true);
    expect(ownPages().map((row) => row.page)).toContain('index.html');
  });

  it.each(existsSync(paths.dist) ? measurePageWeights(paths.dist).filter((row) => !redoclyPages.has(row.page)) : [])(
    '$page weighs $bytes bytes, under the budget',
    ({ bytes }) => {
      expect(bytes).toBeLessThan(OWN_PAGE_BUDGET_BYTES);
    },
  );

  it.each(existsSync(paths.dist) ? readGuides().map((g) => g.page) : [])('guide %s and the files it loads weigh at most the guide budget, gzipped', (page) => {
    const weight = measurePageWeights(paths.dist).find((row) => row.page === page);
    expect(weight?.assets.some((a) => /site\.[0-9a-f]{16}\.js$/.test(a)), 'the site script is counted').toBe(true);
    expect(weight?.gzipBytes).toBeLessThanOrEqual(GUIDE_FIRST_LOAD_BUDGET_BYTES);
  });

  it.each(existsSync(paths.dist) ? readGuides().map((g) => g.page) : [])('guide %s shows its images within their budgets, each and together', (page) => {
    const weight = measurePageWeights(paths.dist).find((row) => row.page === page);
    for (const image of weight?.lazyAssets ?? []) expect(statSync(image).size, image).toBeLessThanOrEqual(GUIDE_IMAGE_BUDGET_BYTES);
    expect(weight?.lazyBytes).toBeLessThanOrEqual(GUIDE_IMAGES_BUDGET_BYTES);
  });

  const pairs = [...redoclyPages].flatMap((first) => [...redoclyPages].filter((second) => second !== first).map((second) => ({ first, second })));
  it.each(pairs)('$second after $first transfers under the budget (gzip, the shared renderer cached)', ({ first, second }) => {
    const weights = measurePageWeights(paths.dist);
    expect(weights.find((row) => row.page === second)?.assets.length, 'the Redoc pages load a shared script').toBeGreaterThan(0);
    expect(gzipBytesAfter(weights, first, second)).toBeLessThan(NEXT_REFERENCE_PAGE_BUDGET_BYTES);
  });
});
