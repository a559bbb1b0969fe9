// The "Confirm with the operator" page: every assumption of every contract (the root `x-paykit-assumptions` of each
// REST contract, the `assumptions.yaml` beside the SOAP contract's WSDL), what we assume, the question to ask, and
// each place the contract marks it, linked to that place's entry on the reference page (an operation, or the
// operations that use a marked schema or parameter; a type or element of the SOAP page). Generated, so that the list
// cannot fall behind the specs. Each question is also a record of the site search.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleOpenApi, fromRoot } from '@paykit/contracts';
import { escapeHtml } from './html.mjs';
import { renderPage } from './layout.mjs';
import { createMarkdownRenderer } from './markdown.mjs';
import { assumptionAnchor, confirmPage, findMarks, markLinks, readAssumptions } from './reference/assumptions.mjs';
import { redocRoute } from './reference/operation-index.mjs';
import { findSoapMarks, readSoapAssumptions } from './reference/soap-assumptions.mjs';
import { paths } from './site-paths.mjs';

/**
 * @typedef {{ where: string, links: { label: string, href: string }[] }} Place
 * @typedef {{ title: string, page: string, assumptions: import('./reference/assumptions.mjs').Assumption[],
 *   places: Map<string, Place[]> }} ContractAssumptions
 */

/** @param {Map<string, Place[]>} places @param {string} key @param {Place} place */
function addPlace(places, key, place) {
  const list = places.get(key) ?? [];
  if (!list.some((p) => p.where === place.where)) list.push(place);
  places.set(key, list);
}

/**
 * @param {{ title: string, page: string, doc: Record<string, unknown> }} contract a bundled REST contract and its page
 * @returns {ContractAssumptions}
 */
export function contractAssumptions({ title, page, doc }) {
  /** @type {Map<string, Place[]>} */
  const places = new Map();
  for (const mark of findMarks(doc)) {
    for (const key of mark.keys) addPlace(places, key, { where: mark.where, links: markLinks(mark, doc, page, redocRoute) });
  }
  return { title, page, assumptions: readAssumptions(doc), places };
}

/**
 * The assumptions of a SOAP contract. A mark naming no entry of the catalogue, or an entry marked nowhere, fails the
 * build, as the lint rule `paykit/assumptions-declared` does for the REST contracts.
 * @param {{ title: string, page: string, wsdl: string }} contract `wsdl`: absolute path
 * @returns {ContractAssumptions}
 */
export function soapContractAssumptions({ title, page, wsdl }) {
  const assumptions = readSoapAssumptions(wsdl);
  /** @type {Map<string, Place[]>} */
  const places = new Map();
  for (const mark of findSoapMarks(wsdl, page)) {
    for (const key of mark.keys) {
      if (!assumptions.some((a) => a.key === key)) throw new Error(`${wsdl}: ${mark.where} is marked with the assumption "${key}", which assumptions.yaml does not hold`);
      addPlace(places, key, { where: mark.where, links: [{ label: mark.where.replace(/`/g, ''), href: mark.href }] });
    }
  }
  const unmarked = assumptions.filter((a) => !places.has(a.key)).map((a) => a.key);
  if (unmarked.length) throw new Error(`${wsdl}: assumptions.yaml holds ${unmarked.join(', ')}, which nothing in the WSDL or XSD marks`);
  return { title, page, assumptions, places };
}

/**
 * @param {ContractAssumptions[]} contracts
 * @returns {{ html: string, headings: import('./layout.mjs').Heading[] }} the page body, and its headings for the
 *   contents list (a section per contract, an entry per assumption)
 */
export function renderConfirmPage(contracts) {
  const md = createMarkdownRenderer(new Map());
  const inline = (/** @type {string} */ text) => md.renderInline(text.replace(/\s*\n\s*/g, ' '));
  /** @type {import('./layout.mjs').Heading[]} */
  const headings = [];
  const sections = contracts
    .filter((c) => c.assumptions.length > 0)
    .map((c) => {
      const sectionId = c.page.replace(/\.html$/, '');
      headings.push({ level: 2, id: sectionId, title: c.title });
      const items = c.assumptions.map((a) => {
        const places = (c.places.get(a.key) ?? []).map(
          (p) =>
            `${inline(p.where)} (${p.links.map((l) => `<a class="marked" href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join(', ')})`,
        );
        headings.push({ level: 3, id: assumptionAnchor(a.key), title: a.title });
        return `<section class="assumption" id="${escapeHtml(assumptionAnchor(a.key))}">
<h3>${escapeHtml(a.title)}</h3>
<p><strong>What we assume:</strong> ${inline(a.assume)}</p>
<p><strong>Ask the operator:</strong> ${inline(a.confirm)}</p>
<p class="note">Marked on the <a href="${escapeHtml(c.page)}">${escapeHtml(c.title)}</a> at ${places.join('; ') || 'no place'} (key <code>${escapeHtml(a.key)}</code>).</p>
</section>`;
      });
      return `<h2 id="${escapeHtml(sectionId)}">${escapeHtml(c.title)}</h2>\n${items.join('\n')}`;
    });
  const html = `<h1>${escapeHtml(confirmPage.title)}</h1>
<p>The service's reference documentation is the truth for every field, status, limit and rule. Where our contracts,
clients or mocks needed something it does not say, we made an assumption, wrote it into the contract, and list it
here: what we assume, and the question to put to the operator before you rely on it in production. Each one is also
shown as a note on the reference page where it applies, and each place below links to it. None of them is the
operator's documentation.</p>
<p>Take this page to your onboarding contact, together with the checklist of <a href="going-live.html">Going live</a>.</p>
${sections.join('\n')}
`;
  return { html, headings };
}

/**
 * One search record per assumption, addressed to its entry: a search for the question (or what we assume) finds it.
 * @param {ContractAssumptions[]} contracts
 * @returns {import('pagefind').CustomRecord[]}
 */
export function confirmSearchRecords(contracts) {
  const plain = (/** @type {string} */ text) => text.replace(/[`«»]/g, '').replace(/\s+/g, ' ').trim();
  return contracts.flatMap((c) =>
    c.assumptions.map((a) => ({
      url: `/${confirmPage.page}#${assumptionAnchor(a.key)}`,
      language: 'en',
      content: [a.title, `Ask the operator: ${plain(a.confirm)}`, `What we assume: ${plain(a.assume)}`, ...a.keywords].join('. '),
      meta: { title: `To confirm: ${a.title}`, kind: `${confirmPage.title} · ${c.title}` },
    })),
  );
}

/**
 * Adds the page to the site's navigation. Called before the other pages are rendered, so that they link it too.
 * @param {import('./layout.mjs').Site} site
 */
export function addConfirmPage(site) {
  site.guides.push(confirmPage);
}

/**
 * Writes the page into `dist`, and returns its search records.
 * @param {import('./layout.mjs').Site} site
 * @param {{ root: string, page: string, title: string }[]} contracts the REST contracts with a reference page
 * @param {{ wsdl: string, page: string, title: string }[]} soap the SOAP contracts (`wsdl` from the repository root)
 */
export async function buildConfirmPage(site, contracts, soap, { dist = paths.dist } = {}) {
  /** @type {ContractAssumptions[]} */
  const all = [];
  for (const c of contracts) all.push(contractAssumptions({ title: c.title, page: c.page, doc: /** @type {Record<string, unknown>} */ (await bundleOpenApi(c.root)) }));
  for (const c of soap) all.push(soapContractAssumptions({ title: c.title, page: c.page, wsdl: fromRoot(c.wsdl) }));
  const { html, headings } = renderConfirmPage(all);
  writeFileSync(join(dist, confirmPage.page), renderPage({ site, current: confirmPage.page, title: confirmPage.title, body: html, headings }));
  return confirmSearchRecords(all);
}
