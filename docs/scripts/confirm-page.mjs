// The "Confirm with the operator" page: every assumption of every REST contract (its root `x-paykit-assumptions`),
// what we assume, the question to ask, and where the contract marks it. Generated, so that the list cannot fall
// behind the specs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleOpenApi } from '@paykit/contracts';
import { escapeHtml } from './html.mjs';
import { renderPage } from './layout.mjs';
import { createMarkdownRenderer } from './markdown.mjs';
import { assumptionAnchor, confirmPage, findMarks, readAssumptions } from './reference/assumptions.mjs';
import { paths } from './site-paths.mjs';

/**
 * @typedef {{ title: string, page: string, assumptions: import('./reference/assumptions.mjs').Assumption[],
 *   places: Map<string, string[]> }} ContractAssumptions
 */

/**
 * @param {{ title: string, page: string, doc: Record<string, unknown> }} contract a bundled contract and its page
 * @returns {ContractAssumptions}
 */
export function contractAssumptions({ title, page, doc }) {
  /** @type {Map<string, string[]>} */
  const places = new Map();
  for (const mark of findMarks(doc)) {
    for (const key of mark.keys) {
      const list = places.get(key) ?? [];
      if (!list.includes(mark.where)) list.push(mark.where);
      places.set(key, list);
    }
  }
  return { title, page, assumptions: readAssumptions(doc), places };
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
        const places = c.places.get(a.key) ?? [];
        headings.push({ level: 3, id: assumptionAnchor(a.key), title: a.title });
        return `<section class="assumption" id="${escapeHtml(assumptionAnchor(a.key))}">
<h3>${escapeHtml(a.title)}</h3>
<p><strong>What we assume:</strong> ${inline(a.assume)}</p>
<p><strong>Ask the operator:</strong> ${inline(a.confirm)}</p>
<p class="note">Marked on the <a href="${escapeHtml(c.page)}">${escapeHtml(c.title)}</a> at ${places.map(inline).join('; ') || 'no place'} (key <code>${escapeHtml(a.key)}</code>).</p>
</section>`;
      });
      return `<h2 id="${escapeHtml(sectionId)}">${escapeHtml(c.title)}</h2>\n${items.join('\n')}`;
    });
  const html = `<h1>${escapeHtml(confirmPage.title)}</h1>
<p>The service's reference documentation is the truth for every field, status, limit and rule. Where our contracts,
clients or mocks needed something it does not say, we made an assumption, wrote it into the contract, and list it
here: what we assume, and the question to put to the operator before you rely on it in production. Each one is also
shown as a note on the reference page where it applies. None of them is the operator's documentation.</p>
<p>Take this page to your onboarding contact, together with the checklist of <a href="going-live.html">Going live</a>.</p>
${sections.join('\n')}
`;
  return { html, headings };
}

/**
 * Adds the page to the site's navigation. Called before the other pages are rendered, so that they link it too.
 * @param {import('./layout.mjs').Site} site
 */
export function addConfirmPage(site) {
  site.guides.push(confirmPage);
}

/**
 * Writes the page into `dist`.
 * @param {import('./layout.mjs').Site} site
 * @param {{ root: string, page: string, title: string }[]} contracts the REST contracts with a reference page
 */
export async function buildConfirmPage(site, contracts, { dist = paths.dist } = {}) {
  const bundled = [];
  for (const c of contracts) bundled.push(contractAssumptions({ title: c.title, page: c.page, doc: /** @type {Record<string, unknown>} */ (await bundleOpenApi(c.root)) }));
  const { html, headings } = renderConfirmPage(bundled);
  writeFileSync(join(dist, confirmPage.page), renderPage({ site, current: confirmPage.page, title: confirmPage.title, body: html, headings }));
}
