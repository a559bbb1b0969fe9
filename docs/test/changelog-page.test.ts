// end-to-end: the replay of the reference's change log through @paykit/compat (a contract per month, checked), which
// takes seconds on a loaded machine; the tests themselves keep the default timeout.
// The Changelog page: every pending changeset (acknowledgements shown as such), the packages' CHANGELOG.md files,
// and every entry of the service's change log with the gate's verdict, from the replay of @paykit/compat.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readChangesetFiles, referenceHistory, type ChangesetFile, type HistoryStep } from '@paykit/compat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changelogPage, readPackageChangelogs, renderChangelog } from '../scripts/changelog-page.mjs';
import { paths } from '../scripts/site-paths.mjs';

let changesets: ChangesetFile[];
let history: HistoryStep[];
const temporary: string[] = [];

beforeAll(async () => {
  changesets = await readChangesetFiles(join(paths.repoRoot, '.changeset'));
  history = await referenceHistory();
}, 60_000);

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-changelog-'));
  temporary.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
/** The part of the page from the heading `id` to the next h2 (or the end). */
function section(html: string, id: string): string {
  const start = html.indexOf(`<h2 id="${id}">`);
  expect(start, `section ${id}`).toBeGreaterThanOrEqual(0);
  const next = html.indexOf('<h2', start + 1);
  return html.slice(start, next < 0 ? undefined : next);
}

describe('changelog page body', () => {
  it('shows every pending changeset of the repository under Unreleased, with its packages and bumps', () => {
    expect(changesets.length).toBeGreaterThan(0);
    const unreleased = section(renderChangelog({ changesets, packages: [], history }), 'unreleased');
    for (const changeset of changesets) {
      expect(unreleased).toContain(`id="changeset-${changeset.id}"`);
      for (const [pkg, bump] of changeset.bumps) expect(unreleased).toContain(`<code>${escapeHtml(pkg)}</code> ${bump}`);
    }
  });

  it('shows an acknowledgement as such, not as a raw line', async () => {
    const location = 'POST /transactions request body application/json body<TransactionRequest>.entryMode';
    const dir = folder({
      'entry-mode.md': `---\n"@paykit/payments": minor\n---\n\n\`entryMode\` is required.\n\ncompat-acknowledge: new-required-request-field at \`${location}\`: required by the service since 2025-05\n`,
    });
    const html = renderChangelog({ changesets: await readChangesetFiles(dir), packages: [], history: [] });
    expect(html).toContain('<code>entryMode</code> is required.');
    expect(html).toContain(`<strong>Acknowledged breaking change</strong> <code>new-required-request-field</code> at <code>${escapeHtml(location)}</code>: required by the service since 2025-05`);
    expect(html).not.toContain('compat-acknowledge:');
  });

  it('shows every entry of the service change log, newest first, with the verdict of the replay', () => {
    const service = section(renderChangelog({ changesets: [], packages: [], history }), 'service');
    const rows = [...service.matchAll(/<tr data-month="([^"]+)"><td>[^<]*<\/td><td>.*?<\/td><td class="verdict">([^<]*)/g)].map((m) => [m[1], m[2]]);
    const verdicts = { compatible: 'compatible', acknowledged: 'compatible with an acknowledgement (fails without it)', breaking: 'breaking', 'not in contract': 'not in the contract' };
    expect(rows).toEqual([...history].reverse().map((step) => [step.entry.month, verdicts[step.verdict]]));
    expect(history.map((s) => s.verdict)).toContain('acknowledged');
    for (const step of history) for (const rule of step.rules) expect(service).toContain(`<code>${rule}</code>`);
    expect(service.match(/Not in the contract: /g)).toHaveLength(history.flatMap((s) => s.entry.notInContract).length);
  });

  it("shows the packages' CHANGELOG.md files, headings one level down, or says none was released", () => {
    const dir = folder({
      'payments/package.json': JSON.stringify({ name: '@paykit/payments', version: '1.1.0' }),
      'payments/CHANGELOG.md': '# @paykit/payments\n\n## 1.1.0\n\n### Minor Changes\n\n- abc123: Aliases.\n\n```sh\n# not a heading\n```\n',
      'soap/package.json': JSON.stringify({ name: '@paykit/soap', version: '1.0.1' }),
      'soap/CHANGELOG.md': '# @paykit/soap\n\n## 1.0.1\n\n### Minor Changes\n\n- def456: Faults.\n',
      'no-changelog/package.json': JSON.stringify({ name: '@paykit/other', version: '1.0.0' }),
    });
    const packages = readPackageChangelogs(dir);
    expect(packages.map((p) => p.name)).toEqual(['@paykit/payments', '@paykit/soap']);
    const released = section(renderChangelog({ changesets: [], packages, history: [] }), 'released');
    expect(released).toContain('<h3 id="package--paykit-payments">@paykit/payments</h3>');
    expect(released).toContain('<h4 id="1-1-0"><a class="anchor" href="#1-1-0">1.1.0</a></h4>');
    expect(released).toContain('<h5 id="minor-changes"><a class="anchor" href="#minor-changes">Minor Changes</a></h5>');
    // One page: the second package's heading of the same name gets an id of its own.
    expect(released).toContain('<h5 id="minor-changes-2"><a class="anchor" href="#minor-changes-2">Minor Changes</a></h5>');
    expect(released).not.toMatch(/<h[1-3] id="(?!package-|released")/);
    expect(released).toContain('# not a heading');
    expect(section(renderChangelog({ changesets: [], packages: [], history: [] }), 'released')).toContain('No version has been released yet.');
  });
});

describe('built site', () => {
  const built = existsSync(join(paths.dist, changelogPage.page));

  it('has the changelog page (run the docs build first)', () => {
    expect(built, `no ${changelogPage.page} in ${paths.dist}`).toBe(true);
  });

  it.skipIf(!built)('every page we render links the changelog page in its navigation', () => {
    const ownPages = readdirSync(paths.dist).filter((f) => f.endsWith('.html') && readFileSync(join(paths.dist, f), 'utf8').includes('<nav class="guides"'));
    expect(ownPages.length).toBeGreaterThan(2);
    for (const page of ownPages) expect(readFileSync(join(paths.dist, page), 'utf8'), page).toContain(`<a href="${changelogPage.page}"`);
    expect(readFileSync(join(paths.dist, changelogPage.page), 'utf8')).toContain(`<a href="${changelogPage.page}" aria-current="page">${changelogPage.title}</a>`);
  });

  it.skipIf(!built)('the landing page gives the changelog a section of its own, outside the guides', () => {
    const landing = readFileSync(join(paths.dist, 'index.html'), 'utf8');
    const main = landing.slice(landing.indexOf('<h1>'));
    const guides = main.slice(main.indexOf('<h2 id="guides">'), main.indexOf('<h2 id="changes">'));
    expect(guides).toContain('<li><a href=');
    expect(guides).not.toContain(changelogPage.page);
    expect(main.slice(main.indexOf('<h2 id="changes">'))).toContain(`<a href="${changelogPage.page}">${changelogPage.title}</a>`);
  });

  it.skipIf(!built)('the built page lists every pending changeset and every history row', () => {
    const html = readFileSync(join(paths.dist, changelogPage.page), 'utf8');
    for (const changeset of changesets) expect(html).toContain(`id="changeset-${changeset.id}"`);
    for (const step of history) expect(html).toContain(`<tr data-month="${step.entry.month}">`);
  });
});
