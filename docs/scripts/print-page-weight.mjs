// `pnpm --filter @paykit/docs weight`: prints the weight of every built page (bytes raw and gzipped, with the files it
// loads), and for the Redoc reference pages what each costs once another reference page is in the browser's cache.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { controlContracts, openApiContracts } from '@paykit/contracts';
import { GUIDE_FIRST_LOAD_BUDGET_BYTES, GUIDE_IMAGES_BUDGET_BYTES, NEXT_REFERENCE_PAGE_BUDGET_BYTES, OWN_PAGE_BUDGET_BYTES, gzipBytesAfter, measurePageWeights } from './page-weight.mjs';
import { readGuides } from './guides.mjs';
import { paths } from './site-paths.mjs';

if (!existsSync(join(paths.dist, 'index.html'))) {
  console.error(`docs: nothing built in ${paths.dist}; run pnpm build first`);
  process.exit(1);
}
const redoclyPages = [...openApiContracts, ...controlContracts].map((c) => c.docs.page);
const guidePages = new Set(readGuides().map((g) => g.page));
const rows = measurePageWeights(paths.dist);
const width = Math.max(...rows.map((r) => r.page.length));
console.log(`${'page'.padEnd(width)}  ${'bytes'.padStart(10)}  ${'gzip'.padStart(9)}  budget`);
for (const row of rows) {
  let budget = row.bytes < OWN_PAGE_BUDGET_BYTES ? `< ${OWN_PAGE_BUDGET_BYTES / 1000} kB ok` : 'OVER';
  if (guidePages.has(row.page)) budget += `; guide, first load gzip ${row.gzipBytes <= GUIDE_FIRST_LOAD_BUDGET_BYTES ? `<= ${GUIDE_FIRST_LOAD_BUDGET_BYTES / 1000} kB ok` : 'OVER'}`;
  if (row.lazyAssets.length) budget += `; ${row.lazyAssets.length} image(s) loaded lazily, ${row.lazyBytes} B ${row.lazyBytes <= GUIDE_IMAGES_BUDGET_BYTES ? `<= ${GUIDE_IMAGES_BUDGET_BYTES / 1000} kB ok` : 'OVER'}`;
  if (redoclyPages.includes(row.page)) {
    const after = redoclyPages.filter((p) => p !== row.page).map((first) => gzipBytesAfter(rows, first, row.page));
    const worst = Math.max(0, ...after);
    budget = `Redoc page, with ${row.assets.length} shared file(s); gzip after another reference page: ${worst} (${worst < NEXT_REFERENCE_PAGE_BUDGET_BYTES ? `< ${NEXT_REFERENCE_PAGE_BUDGET_BYTES / 1000} kB ok` : 'OVER'})`;
  }
  console.log(`${row.page.padEnd(width)}  ${String(row.bytes).padStart(10)}  ${String(row.gzipBytes).padStart(9)}  ${budget}`);
}
