// The shared shell of every page we render ourselves (landing page, guides, SOAP reference): one inline stylesheet,
// the site bar linking the reference pages, and a side list of the guides. Pages stay single files: nothing to fetch.
import { escapeHtml } from './html.mjs';

/**
 * @typedef {{ page: string, title: string, summary?: string }} SitePage
 * @typedef {{ references: SitePage[], guides: SitePage[] }} Site
 */

// The site bar also sits on top of the Redocly pages, so its rules stand alone (no variables of the page stylesheet).
export const siteBarStyle = `
.site-bar { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: center; padding: .6rem 1.25rem;
  border-bottom: 1px solid #d8dee4; background: #f6f8fa; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
.site-bar a { color: #0a58ca; text-decoration: none; }
.site-bar a.home { font-weight: 700; color: #1b1f24; margin-right: .75rem; }
.site-bar a[aria-current="page"] { font-weight: 600; color: #1b1f24; }
`;

const stylesheet = `${siteBarStyle}
:root { --ink: #1b1f24; --muted: #57606a; --line: #d8dee4; --accent: #0a58ca; --code: #f3f4f6; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
a { color: var(--accent); }
.frame { display: grid; grid-template-columns: 15rem minmax(0, 1fr); max-width: 76rem; margin: 0 auto; }
.guides { padding: 1.5rem 1rem; border-right: 1px solid var(--line); font-size: .93rem; }
.guides h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 .5rem; }
.guides ol { list-style: none; padding: 0; margin: 0; }
.guides li { margin: .3rem 0; }
.guides [aria-current="page"] { font-weight: 600; color: var(--ink); }
main { padding: 1.5rem 2rem 4rem; min-width: 0; }
main h1 { margin-top: 0; line-height: 1.2; }
h2, h3 { line-height: 1.3; margin-top: 2rem; }
code { font: .9em/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: var(--code); padding: .1em .3em; border-radius: 4px; }
pre { background: var(--code); padding: .9rem 1rem; overflow-x: auto; border-radius: 6px; }
pre code { padding: 0; background: none; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td:first-child code { white-space: nowrap; }
blockquote { margin: 1rem 0; padding: .5rem 1rem; border-left: 4px solid #e3b341; background: #fff8e1; }
.note { color: var(--muted); }
.diagram { margin: 1.5rem 0; overflow-x: auto; }
.diagram svg { max-width: 100%; height: auto; }
.diagram figcaption { font-size: .9rem; color: var(--muted); margin-top: .25rem; }
@media (max-width: 50rem) { .frame { grid-template-columns: 1fr; } .guides { border-right: 0; border-bottom: 1px solid var(--line); } }
`;

/**
 * @param {SitePage[]} pages
 * @param {string} current
 */
const links = (pages, current) =>
  pages
    .map((p) => `<a href="${escapeHtml(p.page)}"${p.page === current ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a>`);

/**
 * The bar on top of every page, including the Redocly reference pages.
 * @param {Site} site
 * @param {string} current page file of the page being rendered
 */
export function siteBar(site, current) {
  return `<nav class="site-bar" aria-label="Site"><a class="home" href="index.html"${current === 'index.html' ? ' aria-current="page"' : ''}>paykit docs</a>${links(site.references, current).join('')}</nav>`;
}

/**
 * A complete page.
 * @param {{ site: Site, current: string, title: string, body: string }} page
 */
export function renderPage({ site, current, title, body }) {
  const guideList = links(site.guides, current).map((link) => `<li>${link}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · paykit docs</title>
<link rel="icon" href="data:,">
<style>${stylesheet}</style>
</head>
<body>
${siteBar(site, current)}
<div class="frame">
<nav class="guides" aria-label="Guides"><h2>Guides</h2><ol>${guideList}</ol></nav>
<main>
${body}
</main>
</div>
</body>
</html>
`;
}
