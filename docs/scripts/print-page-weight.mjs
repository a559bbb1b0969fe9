// `pnpm --filter @paykit/docs weight`: prints the weight of every built page (bytes raw and gzipped).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openApiContracts } from '@paykit/contracts';
import { OWN_PAGE_BUDGET_BYTES, measurePageWeights } from './page-weight.mjs';
import { paths } from './site-paths.mjs';

if (!existsSync(join(paths.dist, 'index.html'))) {
  console.error(`docs: nothing built in ${paths.dist}; run pnpm build first`);
  process.exit(1);
}
const redoclyPages = new Set(openApiContracts.map((c) => c.docs.page));
const rows = measurePageWeights(paths.dist);
const width = Math.max(...rows.map((r) => r.page.length));
console.log(`${'page'.padEnd(width)}  ${'bytes'.padStart(10)}  ${'gzip'.padStart(9)}  budget`);
for (const row of rows) {
  const budget = redoclyPages.has(row.page) ? 'Redoc bundle' : row.bytes < OWN_PAGE_BUDGET_BYTES ? `< ${OWN_PAGE_BUDGET_BYTES / 1000} kB ok` : 'OVER';
  console.log(`${row.page.padEnd(width)}  ${String(row.bytes).padStart(10)}  ${String(row.gzipBytes).padStart(9)}  ${budget}`);
}
