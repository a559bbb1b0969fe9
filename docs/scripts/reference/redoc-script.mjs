// Serves Redoc's renderer once for every reference page instead of inlining it in each (2.3 MB per page).
//
// `redocly build-docs --inlineBundle` (the option that makes a page work offline) writes Redoc's standalone bundle
// into the page's module script, followed by the page's own code (`const __redoc_definition = ...; hydrate(...)`).
// We take the bundle out into one shared file and leave the page's own code in the page.
//
// The bundle is an ES module (`import.meta`, `export`), and Chromium refuses module scripts from file:// pages, which
// this site has always worked from. So the shared file is a classic script (those load from file:// too) that holds
// the bundle's text, and the page imports that text as a module through a blob: URL. Over HTTP the browser caches the
// file like any script; its name carries a hash of its content, so the server may let it be cached for good.
import { createHash } from 'node:crypto';

/** The global the shared script sets and the page reads. */
const globalName = 'paykitRedocStandalone';

/** The inline module script of a build-docs page: the bundle, a blank line, then the page's own code. */
const moduleScript = /<script type="module">\s*([\s\S]*?)\s*(const __redoc_definition = [\s\S]*?)<\/script>/;

/** The bundle's last statement: what the page imports from it. */
const bundleExports = /export\s*\{[^}]*\bhydrate\b[^}]*\};?$/;

export class RedocPageError extends Error {
  /** @override */
  name = 'RedocPageError';
}

/**
 * Splits a page written by `build-docs --inlineBundle` into Redoc's bundle and the page without it.
 * @param {string} html
 * @param {string} page the page's file name, for messages
 * @returns {{ bundle: string, page: (scriptPath: string) => string }} `page(path)` is the page loading the bundle from `path`
 */
export function splitRedocPage(html, page) {
  const matches = [...html.matchAll(new RegExp(moduleScript, 'g'))];
  if (matches.length !== 1) throw new RedocPageError(`${page}: expected one inline Redoc module script, found ${matches.length}`);
  const match = /** @type {RegExpExecArray} */ (matches[0]);
  const [whole, bundle = '', own = ''] = match;
  if (!bundleExports.test(bundle)) {
    throw new RedocPageError(`${page}: the inline script does not end with Redoc's exports (export { ... hydrate ... }); has build-docs changed its page?`);
  }
  const start = match.index;
  // Redoc's prerendered links are root-absolute (`/transactions`, `/section/...`), and hydration keeps them: opened in
  // a new tab or shared, they lead to the server's root. Its router reads the fragment, so `#/transactions` is the
  // same place, from any address.
  const hashRoutes = (/** @type {string} */ part) => part.replace(/\bhref="\/(?!\/)/g, 'href="#/');
  return {
    bundle,
    page: (scriptPath) =>
      `${hashRoutes(html.slice(0, start))}<script src="${scriptPath}" defer></script>
<script type="module">
if (typeof globalThis.${globalName} !== 'string') throw new Error('Redoc did not load from ${scriptPath}');
const redocModule = URL.createObjectURL(new Blob([globalThis.${globalName}], { type: 'text/javascript' }));
const { hydrate } = await import(redocModule);
URL.revokeObjectURL(redocModule);
${own.trimEnd()}
// Tests wait for this before clicking: a click on the prerendered page before hydration follows its plain links.
document.documentElement.dataset.redoc = 'hydrated';
</script>${hashRoutes(html.slice(start + whole.length))}`,
  };
}

/**
 * The shared script for a bundle, and its file name (content-hashed, so it can be cached without revalidation).
 * @param {string} bundle
 */
export function redocScript(bundle) {
  const hash = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
  return {
    fileName: `redoc.standalone.${hash}.js`,
    // JSON is valid JavaScript for a string literal (U+2028/2029 included since ES2019).
    contents: `// Redoc's standalone bundle, as written by redocly build-docs --inlineBundle, as a string: the reference pages\n// import it through a blob: URL (see docs/scripts/reference/redoc-script.mjs).\nglobalThis.${globalName} = ${JSON.stringify(bundle)};\n`,
  };
}
