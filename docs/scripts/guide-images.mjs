// The guides' images: PNG files in docs/guides/images/ (the sandbox dashboard's screenshots, written there by its
// browser tests with PAYKIT_UPDATE_SCREENSHOTS=1), shown with `![what it shows](images/name.png)`. A guide that shows
// an image that is not there fails the build; each one is drawn at its own size (no layout shift) and loaded lazily,
// so it costs the reader nothing until they scroll to it.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from './site-paths.mjs';

export const imagesFolder = 'images';

/** @param {string} file a PNG file @returns {{ width: number, height: number }} */
export function pngSize(file) {
  const head = readFileSync(file).subarray(0, 24);
  if (head.toString('latin1', 1, 4) !== 'PNG' || head.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`${file} is not a PNG image`);
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/**
 * Where a guide's image is, checked: a PNG under docs/guides/images/.
 * @param {string} src as the guide writes it @param {string} source the guide's file name
 */
export function guideImage(src, source) {
  if (!new RegExp(`^${imagesFolder}/[a-z0-9-]+\\.png$`).test(src)) throw new Error(`${source} shows ${src}: a guide's images are PNG files in guides/${imagesFolder}/ (lower case, digits and dashes)`);
  const file = join(paths.guides, src);
  if (!existsSync(file)) {
    throw new Error(`${source} shows ${src}, which is not in docs/guides/${imagesFolder}/ (the dashboard's screenshots: PAYKIT_UPDATE_SCREENSHOTS=1 pnpm --filter @paykit/payments-sandbox test)`);
  }
  return { file, ...pngSize(file) };
}

/** Copies the images the guides show into the site. @param {Set<string>} shown the `src` of each @param {string} dist */
export function copyGuideImages(shown, dist) {
  if (shown.size === 0) return 0;
  mkdirSync(join(dist, imagesFolder), { recursive: true });
  for (const src of shown) copyFileSync(join(paths.guides, src), join(dist, src));
  return shown.size;
}
