// `pnpm start`: serves the built docs site on a fixed loopback port (override with PAYKIT_DOCS_PORT).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDirectory } from './server.mjs';
import { paths } from './site-paths.mjs';

if (!existsSync(join(paths.dist, 'index.html'))) {
  console.error(`docs: nothing built in ${paths.dist}; run pnpm build first`);
  process.exit(1);
}
const { url } = await serveDirectory(paths.dist, Number(process.env.PAYKIT_DOCS_PORT ?? 4000));
console.log(`docs: ${url}`);
