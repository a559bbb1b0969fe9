// Page weight: the landing page, the guides and the SOAP reference (pages we render ourselves) stay under budget.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiContracts } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { OWN_PAGE_BUDGET_BYTES, measurePageWeights } from '../scripts/page-weight.mjs';
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
});

describe('built site weight', () => {
  const redoclyPages = new Set(openApiContracts.map((c) => c.docs.page));
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
});
