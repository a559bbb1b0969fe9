// `pnpm start`: serves the built docs site on the registry's loopback port (override with PAYKIT_DOCS_PORT).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { docsPort } from '@paykit/contracts';
import { serveDirectory } from './server.mjs';
import { paths } from './site-paths.mjs';

if (!existsSync(join(paths.dist, 'index.html'))) {
  console.error(`docs: nothing built in ${paths.dist}; run pnpm build first`);
  process.exit(1);
}
const { url } = await serveDirectory(paths.dist, Number(process.env.PAYKIT_DOCS_PORT ?? docsPort));
console.log(`docs: ${url}`);
