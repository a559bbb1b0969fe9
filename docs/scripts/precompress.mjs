// The last step of the build: a gzip copy (`<file>.gz`) next to every text file of the site, made once at the best
// level, which the static server (sirv, ./server.mjs) sends to browsers that accept gzip. Pagefind's index and
// WebAssembly are compressed by Pagefind already and images gain nothing, so only text is copied; a copy no smaller
// than its file is not kept, and that file is then sent as it is (page-weight.mjs counts what is sent).
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

const text = new Set(['.html', '.css', '.js', '.mjs', '.json', '.svg', '.xml', '.txt']);

/**
 * @param {string} dir the built site
 * @returns {number} how many gzip copies were written
 */
export function precompress(dir) {
  let written = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = join(dir, name);
    if (!text.has(extname(name)) || !statSync(file).isFile()) continue;
    const contents = readFileSync(file);
    const gzipped = gzipSync(contents, { level: constants.Z_BEST_COMPRESSION });
    if (gzipped.length >= contents.length) continue;
    writeFileSync(`${file}.gz`, gzipped);
    written += 1;
  }
  return written;
}
