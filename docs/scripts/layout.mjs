// The shared shell of every page we render ourselves (landing page, guides, SOAP reference, changelog): one inline
// stylesheet (light and dark), the site bar with the reference pages and the search box, the list of the guides, and a
// contents list on long pages. The behaviour (search, copy buttons, theme toggle) is one shared, cached script
// (./site/site-script.js); the search index it loads only when the search box is used.
import { escapeHtml } from './html.mjs';

/**
 * @typedef {{ page: string, title: string, summary?: string }} SitePage
 * @typedef {{ references: SitePage[], guides: SitePage[], script?: string }} Site `script`: the site script's path
 * @typedef {import('./markdown.mjs').Heading} Heading
 */

/** A page with at least this many sections gets a contents list. */
export const CONTENTS_MIN_SECTIONS = 3;

/** The key under which the reader's choice of theme is kept (localStorage); the site script uses the same. */
export const themeStorageKey = 'paykit-docs-theme';

/** Where Redoc keeps its colour mode (it reads it when it starts, and sets the class `light` or `dark` on <html>). */
export const redocColorModeKey = 'redoc.colorMode';

/**
 * Before the first paint: the reader's choice of theme on <html>, and handed to Redoc, so that a reference page opens
 * in the theme the reader chose on any other page.
 */
export const themeBootScript = `<script>try { const theme = localStorage.getItem(${JSON.stringify(themeStorageKey)}); if (theme === 'dark' || theme === 'light') { document.documentElement.dataset.theme = theme; localStorage.setItem(${JSON.stringify(redocColorModeKey)}, theme); } } catch {}</script>`;

// The site bar also sits on top of the Redocly pages, so its rules stand alone (no variables of the page stylesheet).
export const siteBarStyle = `
.site-bar { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: center; padding: .6rem 1.25rem;
  border-bottom: 1px solid #d8dee4; background: #f6f8fa; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
.site-bar a { color: #0a58ca; text-decoration: none; }
.site-bar a.home { font-weight: 700; color: #1b1f24; margin-right: .75rem; }
.site-bar a[aria-current="page"] { font-weight: 600; color: #1b1f24; }
.site-bar .search { position: relative; margin-left: auto; flex: 0 1 18rem; }
.site-bar .search input { width: 100%; font: inherit; padding: .25rem .6rem; border: 1px solid #afb8c1; border-radius: 6px; background: #fff; color: #1b1f24; }
.search-results { position: absolute; right: 0; top: calc(100% + .35rem); z-index: 1000; width: min(34rem, 92vw); max-height: 70vh; overflow-y: auto;
  margin: 0; padding: .5rem; list-style: none; background: #fff; color: #1b1f24; border: 1px solid #d8dee4; border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.15); }
.search-results[hidden] { display: none; }
.search-results li { padding: .4rem .5rem; border-radius: 6px; }
.search-results li + li { border-top: 1px solid #eaeef2; }
.search-results a.result { font-weight: 600; }
.search-results .kind { font-size: .8rem; color: #57606a; margin-left: .4rem; }
.search-results p { margin: .15rem 0 0; font-size: .88rem; color: #57606a; }
.search-results ul { list-style: none; margin: .2rem 0 0 .75rem; padding: 0; font-size: .9rem; }
.search-results mark { background: #fff3b0; color: inherit; }
.site-bar .theme-toggle { font: inherit; padding: .2rem .6rem; border: 1px solid #afb8c1; border-radius: 6px; background: transparent; color: inherit; cursor: pointer; }
.site-bar .references { display: contents; }
.site-bar .site-menu { display: none; position: relative; }
.site-bar .site-menu summary { cursor: pointer; list-style: none; padding: .2rem .6rem; border: 1px solid #afb8c1; border-radius: 6px; }
.site-bar .site-menu summary::-webkit-details-marker { display: none; }
.site-bar .site-menu .menu-panel { position: absolute; left: 0; top: calc(100% + .35rem); z-index: 1001; width: min(22rem, 92vw); max-height: 75vh;
  overflow-y: auto; padding: .5rem .75rem; background: #fff; border: 1px solid #d8dee4; border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.15); }
.site-bar .site-menu h2 { font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: #57606a; margin: .4rem 0 .2rem; }
.site-bar .site-menu ol { list-style: none; margin: 0; padding: 0; }
.site-bar .site-menu li { margin: .25rem 0; }
.search-results li.active { background: #ddf4ff; outline: 2px solid #0a58ca; }
/* A phone: one row of the bar (the menu holds the reference pages and the guides), then the search. */
@media (max-width: 50rem) {
  .site-bar { padding: .4rem .75rem; gap: .35rem .75rem; }
  .site-bar .references { display: none; }
  .site-bar .site-menu { display: block; }
  .site-bar .search { flex: 1 1 100%; order: 1; }
}
/* The Redoc pages' dark mode (Redoc sets the class) and the reader's choice, for the bar. */
:root.dark .site-bar, :root[data-theme="dark"] .site-bar { background: #151b23; border-color: #30363d; color: #e6edf3; }
:root.dark .site-bar a.home, :root.dark .site-bar a[aria-current="page"] { color: #e6edf3; }
:root.dark .site-bar a, :root.dark .search-results a { color: #4493f8; }
:root.dark .search-results, :root.dark .site-bar .menu-panel { background: #151b23; color: #e6edf3; border-color: #30363d; }
:root.dark .site-bar .search input { background: #0d1117; color: #e6edf3; border-color: #30363d; }
`;

// Dark colours: used when the reader chose dark, or chose nothing and the system prefers dark.
const darkColours = `--ink: #e6edf3; --muted: #9198a1; --line: #30363d; --accent: #4493f8; --code: #161b22; --bg: #0d1117;
  --bar: #151b23; --quote-bg: #2a2415; --quote-line: #9e6a03; --th: #151b23; --mark: #6e5a00; --shadow: rgba(0,0,0,.8); --assume-bg: #121d2f;`;
const darkRules = (/** @type {string} */ root) => `
${root} { ${darkColours} color-scheme: dark; }
${root} .shiki, ${root} .shiki span { color: var(--shiki-dark) !important; background-color: var(--shiki-dark-bg) !important; }
${root} .site-bar, ${root} .search-results { background: var(--bar); border-color: var(--line); color: var(--ink); }
${root} .site-bar a.home, ${root} .site-bar a[aria-current="page"] { color: var(--ink); }
${root} .site-bar a, ${root} .search-results a { color: var(--accent); }
${root} .site-bar .search input { background: var(--bg); color: var(--ink); border-color: var(--line); }
${root} .search-results li + li { border-color: var(--line); }
${root} .site-bar .menu-panel { background: var(--bar); border-color: var(--line); }
${root} .search-results li.active { background: #0c2d6b; }
${root} .search-results p, ${root} .search-results .kind { color: var(--muted); }
${root} .search-results mark { background: var(--mark); }
${root} .diagram svg { filter: invert(.92) hue-rotate(180deg); }
`;

const stylesheet = `${siteBarStyle}
:root { --ink: #1b1f24; --muted: #57606a; --line: #d8dee4; --accent: #0a58ca; --code: #f3f4f6; --bg: #fff; --bar: #f6f8fa;
  --quote-bg: #fff8e1; --quote-line: #e3b341; --th: #f6f8fa; --mark: #fff3b0; --shadow: rgba(0,0,0,.28); --assume-bg: #eef4ff; color-scheme: light; }
${darkRules(':root[data-theme="dark"]')}
@media (prefers-color-scheme: dark) { ${darkRules(':root:not([data-theme="light"])')} }
* { box-sizing: border-box; }
html { scroll-padding-top: 1rem; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
.frame { display: grid; grid-template-columns: 15rem minmax(0, 1fr); grid-template-areas: "guides toc" "guides main"; grid-template-rows: auto 1fr;
  max-width: 76rem; margin: 0 auto; }
.frame > main { grid-area: main; }
.frame > .guides { grid-area: guides; }
.frame > .toc { grid-area: toc; }
.guides { padding: 1.5rem 1rem; border-right: 1px solid var(--line); font-size: .93rem; }
.guides h2, .toc summary { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 .5rem; }
.guides ol, .toc ol { list-style: none; padding: 0; margin: 0; }
.guides li, .toc li { margin: .3rem 0; }
.guides [aria-current="page"] { font-weight: 600; color: var(--ink); }
.toc { margin: 1.5rem 2rem 0; padding: .6rem .9rem; border: 1px solid var(--line); border-radius: 8px; font-size: .93rem; }
.toc summary { cursor: pointer; margin: 0; }
.toc a { text-decoration: none; }
main { padding: 1.5rem 2rem 4rem; min-width: 0; }
main h1 { margin-top: 0; line-height: 1.2; }
h2, h3 { line-height: 1.3; margin-top: 2rem; }
h1 a.anchor, h2 a.anchor, h3 a.anchor, h4 a.anchor { color: inherit; text-decoration: none; }
h2 a.anchor:hover::after, h3 a.anchor:hover::after, h4 a.anchor:hover::after, a.anchor:focus-visible::after { content: " #"; color: var(--muted); }
code { font: .9em/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: var(--code); padding: .1em .3em; border-radius: 4px; }
a.operation code { color: var(--accent); }
:not(pre) > code { overflow-wrap: anywhere; } /* a long call in the text wraps on a phone rather than widen the page */
pre { background: var(--code); padding: .9rem 1rem; overflow-x: auto; border-radius: 6px; border: 1px solid var(--line); }
pre code { padding: 0; background: none; }
.sample { position: relative; }
.sample .copy { position: absolute; z-index: 1; top: .4rem; right: .4rem; font: .8rem system-ui, sans-serif; padding: .15rem .5rem; border: 1px solid var(--line);
  border-radius: 5px; background: var(--bg); color: var(--muted); cursor: pointer; opacity: .85; }
.sample .copy:hover, .sample .copy:focus-visible { opacity: 1; color: var(--ink); }
.sample-operations { margin-top: -.4rem; font-size: .9rem; color: var(--muted); }
.side-by-side { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 1rem; }
.side-by-side > .side { min-width: 0; }
.side-label { margin: .75rem 0 -.6rem; font-size: .8rem; font-weight: 600; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
@media (min-width: 100rem) { .side-by-side { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
/* A table or diagram wider than the column scrolls sideways; a shadow on an edge says that more is hidden there (the
   covers scroll with the content and hide the shadow once an edge is reached). */
table, .diagram { background:
  linear-gradient(to right, var(--bg) 30%, transparent) left / 2.5rem 100% no-repeat local,
  linear-gradient(to left, var(--bg) 30%, transparent) right / 2.5rem 100% no-repeat local,
  radial-gradient(farthest-side at 0 50%, var(--shadow), transparent) left / .8rem 100% no-repeat scroll,
  radial-gradient(farthest-side at 100% 50%, var(--shadow), transparent) right / .8rem 100% no-repeat scroll; }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--th); }
td:first-child code { white-space: nowrap; }
blockquote { margin: 1rem 0; padding: .5rem 1rem; border-left: 4px solid var(--quote-line); background: var(--quote-bg); }
/* The reference's own words (a «…» marker in the source): a quotation, with a faint underline. */
q.reference { font-style: italic; text-decoration: underline dotted var(--muted); text-underline-offset: .2em; }
/* "Our assumption" callouts: ours, not the reference's, and to confirm with the operator. */
blockquote.assumption { border-left-color: var(--accent); background: var(--assume-bg); }
blockquote.assumption::before { content: "To confirm with the operator"; display: block; font-size: .75rem; font-weight: 700; letter-spacing: .05em;
  text-transform: uppercase; color: var(--accent); }
.note { color: var(--muted); }
.diagram { margin: 1.5rem 0; overflow-x: auto; }
.diagram svg { max-width: none; height: auto; } /* never shrunk below its labels' size: the figure scrolls instead */
.diagram figcaption { font-size: .9rem; color: var(--muted); margin-top: .25rem; }
main img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; } /* screenshots fit the column */
@media (min-width: 80rem) {
  .frame:has(> .toc) { grid-template-columns: 15rem minmax(0, 1fr) 15rem; grid-template-areas: "guides main toc"; max-width: 92rem; }
  .toc { margin: 1.5rem 1rem; border: 0; border-left: 1px solid var(--line); border-radius: 0; align-self: start; position: sticky; top: 0; max-height: 100vh; overflow-y: auto; }
}
@media (max-width: 50rem) {
  .frame { grid-template-columns: 1fr; grid-template-areas: "toc" "main" "guides"; }
  .guides { border-right: 0; border-top: 1px solid var(--line); }
  .toc { margin: .75rem 1rem 0; }
  main { padding: 1rem 1rem 3rem; }
  main h1 { font-size: 1.6rem; }
}
.toc a[aria-current="true"] { font-weight: 600; color: var(--ink); }
.toc a[aria-current="true"]::before { content: "▸ "; }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--line); }
.pager a { display: block; max-width: 48%; text-decoration: none; }
.pager .next { margin-left: auto; text-align: right; }
.pager small { display: block; color: var(--muted); }
`;

/**
 * @param {SitePage[]} pages
 * @param {string} current
 */
const links = (pages, current) =>
  pages
    .map((p) => `<a href="${escapeHtml(p.page)}"${p.page === current ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a>`);

/**
 * The bar on top of every page, including the Redocly reference pages: the home link, the reference pages, the search
 * box and (on our pages, which have a dark mode) the theme toggle.
 * @param {Site} site
 * @param {string} current page file of the page being rendered
 * @param {{ themeToggle?: boolean }} [options]
 */
export function siteBar(site, current, { themeToggle = false } = {}) {
  const search = `<div class="search" role="search"><input type="search" id="site-search" placeholder="Search the docs (press /)" aria-label="Search the docs" aria-keyshortcuts="/ Control+K Meta+K" autocomplete="off" aria-controls="search-results"><ol class="search-results" id="search-results" aria-live="polite" hidden></ol></div>`;
  const toggle = themeToggle ? '<button type="button" class="theme-toggle" aria-pressed="false" title="Switch between light and dark">Dark</button>' : '';
  // On a phone the reference pages and the guides are one tap away in a menu, instead of filling the first screen.
  const list = (/** @type {SitePage[]} */ pages) => `<ol>${links(pages, current).map((link) => `<li>${link}</li>`).join('')}</ol>`;
  const menu = `<details class="site-menu"><summary>Menu</summary><div class="menu-panel"><h2>Reference</h2>${list(site.references)}<h2>Guides</h2>${list(site.guides)}</div></details>`;
  return `<nav class="site-bar" aria-label="Site"><a class="home" href="index.html"${current === 'index.html' ? ' aria-current="page"' : ''}>paykit docs</a><span class="references">${links(site.references, current).join('')}</span>${menu}${search}${toggle}</nav>`;
}

/**
 * The previous and next pages of the list of guides, at the end of a guide.
 * @param {Site} site @param {string} current
 */
export function pager(site, current) {
  const at = site.guides.findIndex((g) => g.page === current);
  if (at < 0) return '';
  const [previous, next] = [site.guides[at - 1], site.guides[at + 1]];
  const link = (/** @type {SitePage | undefined} */ page, /** @type {string} */ kind, /** @type {string} */ label) =>
    page ? `<a class="${kind}" rel="${kind === 'previous' ? 'prev' : 'next'}" href="${escapeHtml(page.page)}"><small>${label}</small>${escapeHtml(page.title)}</a>` : '';
  return `<nav class="pager" aria-label="Previous and next" data-pagefind-ignore>${link(previous, 'previous', 'Previous')}${link(next, 'next', 'Next')}</nav>`;
}

/** The site script, deferred: nothing waits for it. @param {Site} site */
export const siteScriptTag = (site) => (site.script ? `<script src="${escapeHtml(site.script)}" defer></script>` : '');

/**
 * The contents list of a long page: its `##` sections (with their `###` under them).
 * @param {Heading[]} headings
 */
export function contentsList(headings) {
  const sections = headings.filter((h) => h.level === 2);
  if (sections.length < CONTENTS_MIN_SECTIONS) return '';
  /** @type {string[]} */
  const items = [];
  for (const heading of headings) {
    if (heading.level === 2) items.push(`<li><a href="#${escapeHtml(heading.id)}">${escapeHtml(heading.title)}</a></li>`);
    else if (heading.level === 3 && items.length > 0) {
      const last = /** @type {string} */ (items.pop());
      const sub = `<li><a href="#${escapeHtml(heading.id)}">${escapeHtml(heading.title)}</a></li>`;
      items.push(last.endsWith('</ol></li>') ? `${last.slice(0, -'</ol></li>'.length)}${sub}</ol></li>` : `${last.slice(0, -'</li>'.length)}<ol>${sub}</ol></li>`);
    }
  }
  // Open beside the text on a wide screen; folded on a narrow one, so the text starts in the first screen.
  return `<details class="toc"><summary>On this page</summary><ol>${items.join('')}</ol></details>
<script>if (matchMedia('(min-width: 50.01rem)').matches) document.currentScript.previousElementSibling.open = true;</script>`;
}

/**
 * A complete page.
 * @param {{ site: Site, current: string, title: string, body: string, headings?: Heading[], head?: string }} page
 *   `headings`: the page's headings, for its contents list; `head`: more elements for the page's head
 */
export function renderPage({ site, current, title, body, headings = [], head = '' }) {
  const guideList = links(site.guides, current).map((link) => `<li>${link}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · paykit docs</title>
<link rel="icon" href="data:,">${head}
${themeBootScript}
<style>${stylesheet}</style>
${siteScriptTag(site)}
</head>
<body>
${siteBar(site, current, { themeToggle: true })}
<div class="frame">
<main data-pagefind-body>
${body}
${pager(site, current)}
</main>
${contentsList(headings)}
<nav class="guides" aria-label="Guides"><h2>Guides</h2><ol>${guideList}</ol></nav>
</div>
</body>
</html>
`;
}
