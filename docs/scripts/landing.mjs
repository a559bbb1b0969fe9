// The landing page body: what the toolkit is, every reference page and guide, the changelog, and the package versions.
import { escapeHtml } from './html.mjs';

/**
 * @param {{ references: (import('./layout.mjs').SitePage)[], guides: (import('./layout.mjs').SitePage)[],
 *   changelog: import('./layout.mjs').SitePage, confirm: import('./layout.mjs').SitePage, packages: { name: string, version: string, description: string }[] }} content
 */
export function renderLanding({ references, guides, changelog, confirm, packages }) {
  const list = (/** @type {import('./layout.mjs').SitePage[]} */ pages) =>
    `<ul>${pages.map((p) => `<li><a href="${escapeHtml(p.page)}">${escapeHtml(p.title)}</a>${p.summary ? `: ${escapeHtml(p.summary)}` : ''}</li>`).join('\n')}</ul>`;
  return `<h1>paykit docs</h1>
<p>Typed TypeScript clients, local mocks and API references for the payments API and the file exchange (REST and
SOAP over client-certificate TLS). Every reference page is built from the contracts in <code>specs/</code>, and every
code sample in the guides is type-checked against the packages listed below.</p>
<h2 id="reference">API reference</h2>
${list(references)}
<h2 id="guides">Guides</h2>
${list(guides)}
<h2 id="assumptions">Before you go live</h2>
<p><a href="${escapeHtml(confirm.page)}">${escapeHtml(confirm.title)}</a>: where our contracts, clients and mocks go
beyond the service's reference, what we assume there, and what to ask the operator.</p>
<h2 id="changes">Changes</h2>
<p><a href="${escapeHtml(changelog.page)}">${escapeHtml(changelog.title)}</a>: what changed in the packages, and what the
service changed within v1 with the compatibility gate's verdict on each change.</p>
<h2 id="packages">Packages</h2>
<table>
<thead><tr><th>package</th><th>version</th><th>what it is</th></tr></thead>
<tbody>
${packages.map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.version)}</td><td>${escapeHtml(p.description)}</td></tr>`).join('\n')}
</tbody>
</table>
<h2 id="mocks">Local mocks</h2>
<p>Run <code>npx paykit-mock</code> (package <code>@paykit/mock-server</code>) to serve every mock on loopback.</p>
`;
}
