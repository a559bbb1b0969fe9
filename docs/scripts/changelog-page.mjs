// The Changelog page: what changed in our packages (their CHANGELOG.md files, and the pending changesets as
// "Unreleased"), then the service's own change log with the compatibility gate's verdict for each entry, replayed by
// @paykit/compat on the payments contract (the same replay `paykit-compat history` prints).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readChangesetFiles, referenceHistory, withoutAcknowledgements } from '@paykit/compat';
import { escapeHtml } from './html.mjs';
import { renderPage } from './layout.mjs';
import { createMarkdownRenderer } from './markdown.mjs';
import { paths } from './site-paths.mjs';

export const changelogPage = { page: 'changelog.html', title: 'Changelog' };

/** @typedef {import('@paykit/compat').ChangesetFile} ChangesetFile */
/** @typedef {import('@paykit/compat').HistoryStep} HistoryStep */
/** @typedef {{ name: string, markdown: string }} PackageChangelog */

/** Every package under `dir` that has a CHANGELOG.md, by package name. */
export function readPackageChangelogs(dir = paths.packages) {
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'CHANGELOG.md')) && existsSync(join(dir, name, 'package.json')))
    .map((name) => ({
      name: /** @type {{ name: string }} */ (JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8'))).name,
      markdown: readFileSync(join(dir, name, 'CHANGELOG.md'), 'utf8'),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A package's changelog as the page shows it: without its `# package` title (the page gives each package an h3) and
 * with its headings two levels down. `env` is shared by every changelog of the page, so heading ids stay unique.
 * @param {import('markdown-it').default} md @param {string} markdown @param {object} env
 */
function renderDemoted(md, markdown, env) {
  const tokens = md.parse(markdown, env);
  if (tokens[0]?.type === 'heading_open' && tokens[0].tag === 'h1') tokens.splice(0, 3);
  for (const token of tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
  }
  return md.renderer.render(tokens, md.options, env);
}

/**
 * @param {{ changesets: ChangesetFile[], packages: PackageChangelog[], history: HistoryStep[] }} content
 * @returns {string} the page body
 */
export function renderChangelog({ changesets, packages, history }) {
  const md = createMarkdownRenderer(new Map());
  const inline = (/** @type {string} */ text) => md.renderInline(text);

  const unreleased = changesets.map((c) => {
    const bumps = c.bumps.map(([pkg, bump]) => `<code>${escapeHtml(pkg)}</code> ${escapeHtml(bump)}`).join(', ') || 'no package';
    const acknowledged = c.acknowledgements.map(
      (a) => `<li><strong>Acknowledged breaking change</strong> <code>${escapeHtml(a.rule)}</code> at <code>${escapeHtml(a.location)}</code>: ${escapeHtml(a.reason)}</li>`,
    );
    const text = md.render(withoutAcknowledgements(c.body).trim());
    return `<article class="changeset" id="changeset-${escapeHtml(c.id)}">
<h3>${escapeHtml(c.id)}</h3>
<p class="note">${bumps}</p>
${text}${acknowledged.length > 0 ? `<ul class="acknowledged">${acknowledged.join('')}</ul>` : ''}
</article>`;
  });

  const env = {};
  const released = packages.map((p) => `<h3 id="package-${escapeHtml(p.name.replace(/[^a-z0-9]+/gi, '-'))}">${escapeHtml(p.name)}</h3>\n${renderDemoted(md, p.markdown, env)}`);

  const verdictText = {
    compatible: 'compatible',
    acknowledged: 'compatible with an acknowledgement (fails without it)',
    breaking: 'breaking',
    'not in contract': 'not in the contract',
  };
  // Newest first, as the reference lists its change log.
  const rows = [...history].reverse().map(({ entry, verdict, rules }) => {
    const outside = entry.notInContract.map((n) => `<br><span class="note">Not in the contract: ${inline(n)}</span>`).join('');
    const acknowledged = (entry.acknowledge ?? []).map((a) => `<br><span class="note">Acknowledged: <code>${escapeHtml(a.rule)}</code> at <code>${escapeHtml(a.location)}</code>: ${escapeHtml(a.reason)}</span>`).join('');
    const hit = rules.map((r) => `<code>${escapeHtml(r)}</code>`).join(', ') || '-';
    return `<tr data-month="${escapeHtml(entry.month)}"><td>${escapeHtml(entry.month)}</td><td>${inline(entry.change)}${outside}</td><td class="verdict">${escapeHtml(verdictText[verdict])}${acknowledged}</td><td>${hit}</td></tr>`;
  });

  return `<h1>${escapeHtml(changelogPage.title)}</h1>
<p>What changed in the <code>@paykit/*</code> packages, and what the service changed in its API within version
<code>v1</code>, as our compatibility gate judges each change (see <a href="versioning.html">the versioning guide</a>).</p>
<h2 id="unreleased">Unreleased</h2>
${unreleased.length > 0 ? unreleased.join('\n') : '<p class="note">No pending changeset.</p>'}
<h2 id="released">Released versions</h2>
${released.length > 0 ? released.join('\n') : '<p class="note">No version has been released yet.</p>'}
<h2 id="service">The service's change log, judged by the gate</h2>
<p>Each recent entry of the reference's change log, newest first, replayed on the payments contract: the contract as
it stood before the entry, then after it, run through the same gate as our own changes.</p>
<table>
<thead><tr><th>month</th><th>change</th><th>gate's verdict</th><th>rules</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
`;
}

/**
 * Adds the Changelog page to the site's navigation and writes it into `dist`. Called before the other pages are
 * rendered, so that their navigation links it too.
 * @param {import('./layout.mjs').Site} site
 */
export async function buildChangelogPage(site, { dist = paths.dist, changesetDir = join(paths.repoRoot, '.changeset'), packagesDir = paths.packages } = {}) {
  site.guides.push(changelogPage);
  const body = renderChangelog({
    changesets: await readChangesetFiles(changesetDir),
    packages: readPackageChangelogs(packagesDir),
    history: await referenceHistory(),
  });
  writeFileSync(join(dist, changelogPage.page), renderPage({ site, current: changelogPage.page, title: changelogPage.title, body }));
}
