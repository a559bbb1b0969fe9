// The site script (./site-script.js) as a file of the built site, named after a hash of its content so that the
// server may let browsers keep it (see ../server.mjs).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the shared files of the built site go, relative to its root. */
export const assetsDir = 'assets';

/**
 * @param {string} dist the built site
 * @returns {string} the script's path in the site
 */
export function writeSiteScript(dist) {
  const contents = readFileSync(new URL('./site-script.js', import.meta.url));
  const path = `${assetsDir}/site.${createHash('sha256').update(contents).digest('hex').slice(0, 16)}.js`;
  mkdirSync(join(dist, assetsDir), { recursive: true });
  writeFileSync(join(dist, path), contents);
  return path;
}
