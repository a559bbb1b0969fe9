// The guides: every docs/guides/NN-name.md becomes name.html, ordered by its number, titled by its first heading.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from './site-paths.mjs';

/**
 * @typedef {{ source: string, page: string, title: string, markdown: string }} Guide
 */

/** @returns {Guide[]} */
export function readGuides(dir = paths.guides) {
  return readdirSync(dir)
    .filter((file) => /^\d+-[a-z0-9-]+\.md$/.test(file))
    .sort()
    .map((source) => {
      const markdown = readFileSync(join(dir, source), 'utf8');
      const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim();
      if (!title) throw new Error(`${source} has no "# Title" heading`);
      return { source, page: `${source.replace(/^\d+-/, '').replace(/\.md$/, '')}.html`, title, markdown };
    });
}
