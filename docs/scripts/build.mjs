// Builds the docs site into docs/dist: the Redocly reference page of each REST contract (and, in assets/, the Redoc
// renderer they share), the generated SOAP reference page, the guides and the landing page. Everything works offline,
// served or opened from the folder (file://).
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { controlContracts, fromRoot, openApiContracts, readSoapContract, soapContracts } from '@paykit/contracts';
import { buildChangelogPage, changelogPage } from './changelog-page.mjs';
import { addConfirmPage, buildConfirmPage } from './confirm-page.mjs';
import { copyGuideImages } from './guide-images.mjs';
import { readGuides } from './guides.mjs';
import { renderLanding } from './landing.mjs';
import { renderPage } from './layout.mjs';
import { loadDiagrams } from './diagrams/index.mjs';
import { loadHighlighter } from './highlight.mjs';
import { createMarkdownRenderer, renderGuide } from './markdown.mjs';
import { publishedPackages } from './package-versions.mjs';
import { precompress } from './precompress.mjs';
import { buildReferencePages } from './reference-pages.mjs';
import { confirmPage } from './reference/assumptions.mjs';
import { loadReferenceOperations } from './reference/operation-index.mjs';
import { soapSamples } from './reference/soap-samples.mjs';
import { buildSearchIndex } from './search-index.mjs';
import { writeSiteScript } from './site/site-assets.mjs';
import { renderSoapReference } from './soap-page.mjs';
import { notFoundPage, paths } from './site-paths.mjs';

// Every contract of the registry gets a reference page: Redocly renders the OpenAPI ones from their redocly.yaml API
// name, our own renderer the SOAP one from the WSDL and the XSD it imports.
const rest = openApiContracts.map((c) => ({ name: c.name, root: c.root, clientPackage: c.clientPackage.name, ...c.docs }));
// The mocks' own control interfaces are contracts too, with their generated clients and reference pages; the guides'
// operation links and the assumptions are the service's alone.
const controls = controlContracts.map((c) => ({ name: c.name, root: c.root, clientPackage: c.package.name, ...c.docs }));
const soap = soapContracts.map((c) => ({ wsdl: c.wsdl, clientPackage: c.clientPackage.name, ...c.docs }));
const guides = readGuides();

// Every page lives in one folder: a guide named like a reference page would silently replace it.
const taken = new Map([['index.html', 'the landing page'], [notFoundPage, 'the page for a missing address'], [confirmPage.page, confirmPage.title], ...[...rest, ...controls, ...soap].map((c) => /** @type {[string, string]} */ ([c.page, c.title]))]);
for (const guide of guides) {
  const owner = taken.get(guide.page);
  if (owner) throw new Error(`guides/${guide.source} would be built as ${guide.page}, which is ${owner}: rename the guide`);
  taken.set(guide.page, guide.source);
}

/** @type {import('./layout.mjs').Site} */
const site = {
  references: [...rest, ...controls, ...soap].map(({ page, title, summary }) => ({ page, title, summary })),
  guides: guides.map(({ page, title }) => ({ page, title })),
};

// Start from an empty folder so a page whose source was removed does not linger.
if (existsSync(paths.dist)) for (const entry of readdirSync(paths.dist)) rmSync(join(paths.dist, entry), { recursive: true });
mkdirSync(paths.dist, { recursive: true });
site.script = writeSiteScript(paths.dist);
await buildChangelogPage(site);
addConfirmPage(site);

await buildReferencePages([...rest, ...controls], site);
const confirmRecords = await buildConfirmPage(site, rest, soap);

const highlight = await loadHighlighter();
for (const contract of soap) {
  const related = site.references.find((p) => p.page === contract.related);
  const model = await readSoapContract(fromRoot(contract.wsdl));
  const body = renderSoapReference(model, {
    title: contract.title,
    source: contract.wsdl,
    ...(related ? { related } : {}),
    samples: { packageName: contract.clientPackage, byOperation: soapSamples(model, { packageName: contract.clientPackage }), highlight },
  });
  writeFileSync(join(paths.dist, contract.page), renderPage({ site, current: contract.page, title: contract.title, body }));
}

const operations = await loadReferenceOperations({ rest, soap });
const markdown = createMarkdownRenderer(new Map(guides.map((g) => [g.source, g.page])), await loadDiagrams(), {
  highlight,
  operations,
});
/** @type {Set<string>} */
const images = new Set();
for (const guide of guides) {
  const { html, headings } = renderGuide(markdown, guide.markdown, guide.source, images);
  writeFileSync(join(paths.dist, guide.page), renderPage({ site, current: guide.page, title: guide.title, body: html, headings }));
}

copyGuideImages(images, paths.dist);

// The changelog and the list of assumptions sit in the navigation's list of guides, but the landing page gives them
// sections of their own.
const landing = renderLanding({
  references: site.references,
  guides: site.guides.filter((page) => page.page !== changelogPage.page && page.page !== confirmPage.page),
  changelog: changelogPage,
  confirm: confirmPage,
  packages: publishedPackages(),
});
writeFileSync(join(paths.dist, 'index.html'), renderPage({ site, current: 'index.html', title: 'Home', body: landing }));

// The page a server sends for an address that has no page (scripts/server.mjs does). It may be sent for any path, so
// its links resolve from the site's root.
writeFileSync(
  join(paths.dist, notFoundPage),
  renderPage({
    site,
    current: notFoundPage,
    title: 'Page not found',
    head: '<base href="/">',
    body: `<h1>Page not found</h1>
<p>There is no page at this address. It may have moved when the guides were renumbered, or the link may be mistyped.</p>
<p>Search the docs with the box above (press <kbd>/</kbd>), or start again from <a href="index.html">the home page</a>,
the <a href="${site.guides[0]?.page ?? 'index.html'}">first guide</a> or a reference page:</p>
<ul>${site.references.map((r) => `<li><a href="${r.page}">${r.title}</a></li>`).join('')}</ul>`,
  }),
);

const redocPages = new Set(rest.map((c) => c.page));
const search = await buildSearchIndex({
  dist: paths.dist,
  pages: [...taken.keys(), changelogPage.page].filter((page) => !redocPages.has(page) && page !== notFoundPage),
  operations,
  records: confirmRecords,
});

// Last: the gzip copies the server sends must be of the files as finally written.
const gzipped = precompress(paths.dist);

console.log(`docs: ${site.references.length} reference pages, ${guides.length} guides and the landing page in ${paths.dist}; search index of ${search.pages} pages and ${search.records} records (operations, questions); ${gzipped} gzip copies`);
