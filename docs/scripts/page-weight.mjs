// Page weight of the built site: for each page, the bytes of its HTML plus every local file it references (scripts,
// stylesheets, images), raw and as sent to a browser that accepts gzip: the gzip copy the build wrote
// (precompress.mjs), which the server sends, or the file itself where there is none. An image the page loads lazily
// (`loading="lazy"`: a guide's screenshots) is not part of what the page sends first: it is counted apart
// (`lazyBytes`), under a budget of its own. The Redoc reference pages share
// one script, which a browser downloads once: `gzipBytesAfter` models what opening a page costs once another was opened.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';

/** @param {string} file @param {Buffer} contents @returns {number} bytes the server sends for it with gzip accepted */
const sentBytes = (file, contents) => (existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : contents.length);

/** Pages we write ourselves must stay under this many bytes. */
export const OWN_PAGE_BUDGET_BYTES = 200_000;

/** A guide's first load (its HTML and the site script, gzip) must stay within this; the search index is not part of it. */
export const GUIDE_FIRST_LOAD_BUDGET_BYTES = 60_000;

/** The images a guide loads lazily (its screenshots), each, and all of one guide together. */
export const GUIDE_IMAGE_BUDGET_BYTES = 100_000;
export const GUIDE_IMAGES_BUDGET_BYTES = 300_000;

/** A reference page opened after another must transfer less than this (gzip), its shared script being cached. */
export const NEXT_REFERENCE_PAGE_BUDGET_BYTES = 150_000;

/**
 * @typedef {{ page: string, bytes: number, gzipBytes: number, htmlGzipBytes: number, assets: string[],
 *   assetGzipBytes: Record<string, number>, lazyAssets: string[], lazyBytes: number }} PageWeight
 */

/**
 * @param {string} dist the built site
 * @returns {PageWeight[]}
 */
export function measurePageWeights(dist) {
  return readdirSync(dist)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((page) => {
      const html = readFileSync(join(dist, page));
      const text = html.toString('utf8');
      /** @param {string[]} refs */
      const localFiles = (refs) => [
        ...new Set(
          refs
            .filter((ref) => !/^[a-z]+:/i.test(ref) && !ref.endsWith('.html'))
            .map((ref) => normalize(join(dist, ref)))
            .filter((file) => existsSync(file) && statSync(file).isFile()),
        ),
      ];
      const lazyAssets = localFiles(
        [...text.matchAll(/<img\b[^>]*>/g)].filter((tag) => /\sloading="lazy"/.test(tag[0])).map((tag) => /\ssrc="([^"#?]+)"/.exec(tag[0])?.[1] ?? ''),
      );
      const assets = localFiles([...text.matchAll(/<(?:script|img|link)\b[^>]*?\s(?:src|href)="([^"#?]+)"/g)].map((match) => match[1] ?? '')).filter(
        (file) => !lazyAssets.includes(file),
      );
      const assetFiles = assets.map((file) => readFileSync(file));
      const assetGzipBytes = Object.fromEntries(assets.map((file, i) => [file, sentBytes(file, /** @type {Buffer} */ (assetFiles[i]))]));
      const htmlGzipBytes = sentBytes(join(dist, page), html);
      return {
        page,
        bytes: [html, ...assetFiles].reduce((sum, f) => sum + f.length, 0),
        gzipBytes: htmlGzipBytes + Object.values(assetGzipBytes).reduce((sum, n) => sum + n, 0),
        htmlGzipBytes,
        assets,
        assetGzipBytes,
        lazyAssets,
        lazyBytes: lazyAssets.reduce((sum, file) => sum + statSync(file).size, 0),
      };
    });
}

/**
 * Gzip bytes a browser downloads to open `second` after `first`: its HTML, and the files `first` did not already
 * bring into the cache.
 * @param {PageWeight[]} weights @param {string} first @param {string} second
 */
export function gzipBytesAfter(weights, first, second) {
  const [before, after] = [first, second].map((page) => {
    const found = weights.find((w) => w.page === page);
    if (!found) throw new Error(`no built page ${page}`);
    return found;
  });
  const cached = new Set(before?.assets);
  return (after?.htmlGzipBytes ?? 0) + (after?.assets ?? []).filter((a) => !cached.has(a)).reduce((sum, a) => sum + (after?.assetGzipBytes[a] ?? 0), 0);
}
