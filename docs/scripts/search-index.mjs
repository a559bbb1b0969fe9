// The site-wide search index, written by Pagefind into dist/pagefind/: the pages we render (their <main>), and one
// record per reference operation and per question for the operator, addressed to its entry (Redoc draws its operations in the browser, so the built
// Redoc pages hold nothing to index). The site script (./site/site-script.js) loads the index when a search starts.
//
// Opened from the folder (file://), a browser refuses to fetch the index's files; so each is also written as a classic
// script under pagefind/offline/ that registers its bytes, base64-encoded, for the site script to use instead.
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import * as pagefind from 'pagefind';

export const searchDir = 'pagefind';

// Pagefind's ready-made interfaces: the site script draws its own results, so these are not shipped.
const unusedOutput = /^pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$/;

/**
 * @template {{ errors: string[] }} R
 * @param {R} response @param {string} what
 * @returns {R}
 */
function check(response, what) {
  if (response.errors.length > 0) throw new Error(`search index: ${what}: ${response.errors.join('; ')}`);
  return response;
}

/** @param {string} dir @returns {string[]} every file under dir */
const filesUnder = (dir) =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/**
 * @param {import('./reference/operation-index.mjs').ReferenceOperation} op
 * @returns {import('pagefind').CustomRecord}
 */
export function operationRecord(op) {
  const signature = op.method && op.path ? `${op.method} ${op.path}` : `SOAP operation ${op.operationId}`;
  return {
    url: `/${op.href}`,
    language: 'en',
    content: [op.title, signature, op.operationId, op.clientMethod ? `${op.clientPackage} ${op.clientMethod}()` : '', op.description].filter(Boolean).join('. '),
    meta: { title: op.title, kind: `${op.contractTitle} · ${signature}` },
  };
}

/**
 * @param {{ dist: string, pages: string[], operations: import('./reference/operation-index.mjs').ReferenceOperation[],
 *   records?: import('pagefind').CustomRecord[] }} input
 *   `pages`: the pages we render, by file name in `dist`; `records`: more records (the questions to the operator)
 * @returns {Promise<{ pages: number, records: number }>}
 */
export async function buildSearchIndex({ dist, pages, operations, records = [] }) {
  const output = join(dist, searchDir);
  rmSync(output, { recursive: true, force: true });
  const { index } = check(await pagefind.createIndex({ forceLanguage: 'en' }), 'starting Pagefind');
  if (!index) throw new Error('search index: Pagefind returned no index');
  try {
    for (const page of pages) check(await index.addHTMLFile({ url: `/${page}`, content: readFileSync(join(dist, page), 'utf8') }), page);
    for (const op of operations) check(await index.addCustomRecord(operationRecord(op)), op.href);
    for (const record of records) check(await index.addCustomRecord(record), record.url);
    check(await index.writeFiles({ outputPath: output }), 'writing the index');
  } finally {
    await pagefind.close();
  }
  for (const file of filesUnder(output)) {
    const path = relative(output, file).split(sep).join('/');
    if (unusedOutput.test(path)) {
      rmSync(file);
      continue;
    }
    const script = join(output, 'offline', `${path}.js`);
    mkdirSync(dirname(script), { recursive: true });
    writeFileSync(script, `(globalThis.paykitSearchFiles ??= {})[${JSON.stringify(path)}] = ${JSON.stringify(readFileSync(file).toString('base64'))};\n`);
  }
  return { pages: pages.length, records: operations.length + records.length };
}
