// Where things are: the repository root, the built site and the guides' sources.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const docsRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const paths = {
  docsRoot,
  repoRoot: resolve(docsRoot, '..'),
  dist: resolve(docsRoot, 'dist'),
  guides: resolve(docsRoot, 'guides'),
  packages: resolve(docsRoot, '../packages'),
};

/** The page the server sends, with status 404, for an address that has no page. */
export const notFoundPage = '404.html';
