// Page weight of the built site: for each page, the bytes of its HTML plus every local file it references (scripts,
// stylesheets, images), raw and gzip-compressed. Our pages reference nothing, so the HTML is the whole weight.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Pages we write ourselves must stay under this many bytes; Redocly reference pages are as small as Redoc allows. */
export const OWN_PAGE_BUDGET_BYTES = 200_000;

/**
 * @param {string} dist the built site
 * @returns {{ page: string, bytes: number, gzipBytes: number, assets: string[] }[]}
 */
export function measurePageWeights(dist) {
  return readdirSync(dist)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((page) => {
      const html = readFileSync(join(dist, page));
      const assets = [...html.toString('utf8').matchAll(/<(?:script|img|link)\b[^>]*?\s(?:src|href)="([^"#?]+)"/g)]
        .map((match) => match[1] ?? '')
        .filter((ref) => !/^[a-z]+:/i.test(ref) && !ref.endsWith('.html'))
        .map((ref) => normalize(join(dist, ref)))
        .filter((file) => existsSync(file) && statSync(file).isFile());
      const files = [html, ...assets.map((file) => readFileSync(file))];
      return {
        page,
        bytes: files.reduce((sum, f) => sum + f.length, 0),
        gzipBytes: files.reduce((sum, f) => sum + gzipSync(f).length, 0),
        assets,
      };
    });
}
