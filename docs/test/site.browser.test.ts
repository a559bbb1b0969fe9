// end-to-end: a real Chromium opens every page of the built site and clicks through every operation of the Redoc pages.
// Opens every page of the built site in Debian's Chromium with the network cut off, and checks that each page is
// clean (no off-site request, no failed first-party request, no console error) and shows what its source says it
// should: the operations of each REST contract (and that search finds them), the operations and elements of the
// WSDL, the headings of each guide, the package versions on the landing page, and the code samples of the REST
// references. Screenshots go to test-results/screenshots/ (or PAYKIT_DOCS_SCREENSHOTS).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { controlContracts, openApiContracts, soapContracts } from '@paykit/contracts';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changelogPage } from '../scripts/changelog-page.mjs';
import { confirmPage } from '../scripts/reference/assumptions.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { notFoundPage, paths } from '../scripts/site-paths.mjs';
import { installHint, skipBrowserTests } from './support/chromium.js';
import { screenshots, useBuiltSite } from './support/built-site.js';
import { markdownHeadings } from './support/markdown-headings.js';
import { openOffline, type OfflinePage } from './support/offline-page.js';
import { builtDefinition, builtOperations, type CodeSample } from './support/built-reference.js';
import { readSpecSummary, type SpecOperation } from './support/spec-operations.js';

// Each test waits on Chromium; a hang still fails within this bound.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const builtPages = existsSync(paths.dist) ? readdirSync(paths.dist).filter((f) => f.endsWith('.html')).sort() : [];
// The mocks' control interfaces are OpenAPI contracts with generated clients too: their pages get the same checks.
const rest = [
  ...openApiContracts.map((c) => ({ spec: c.root, packageName: c.clientPackage.name, ...c.docs })),
  ...controlContracts.map((c) => ({ spec: c.root, packageName: c.package.name, ...c.docs })),
];
const specs = new Map(await Promise.all(rest.map(async (c) => [c.page, await readSpecSummary(join(paths.repoRoot, c.spec))] as const)));
const soap = soapContracts.map((c) => ({ wsdl: c.wsdl, ...c.docs }));
const guides = readGuides();
const referencePages = [...rest, ...soap].map((c) => c.page);
const redocPages = rest.map((c) => c.page);


async function expectClean({ problems }: OfflinePage): Promise<void> {
  expect(problems.offsiteRequests, 'requests that left the machine').toEqual([]);
  expect(problems.failedRequests, 'failed first-party requests').toEqual([]);
  expect(problems.consoleErrors, 'console errors').toEqual([]);
}

/**
 * The first screen of a page, for a reviewer's eyes (a shot asserts nothing). Only the first screen: a full-page shot's
 * cost grows with the page's height, and the longest pages (the changelog: 16,700 px) took seconds each.
 */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

/** Relative links of our own pages must land on a built page, and their #fragment on an element of that page. */
async function expectLinksResolve(page: Page, pageFile: string): Promise<void> {
  const hrefs = await page.$$eval('a[href]', (links) => links.map((a) => a.getAttribute('href') ?? ''));
  const broken: string[] = [];
  for (const href of hrefs) {
    if (/^[a-z]+:/i.test(href)) {
      broken.push(`${href} (absolute links leave the offline site)`);
      continue;
    }
    const [file = '', fragment] = href.split('#');
    const target = file || pageFile;
    if (!builtPages.includes(target)) broken.push(href);
    else if (fragment && !redocPages.includes(target)) {
      // Redoc routes by fragment at run time; our own pages must carry the id.
      const html = readFileSync(join(paths.dist, target), 'utf8');
      if (!html.includes(`id="${fragment}"`)) broken.push(href);
    }
  }
  expect(broken, `broken links on ${pageFile}`).toEqual([]);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Redoc's highlighted code blocks of one language (`ts`, `shell`...) whose text is exactly `source`. */
const sampleBlocks = (page: Page, language: string, source: string) =>
  page.locator(`pre[data-testid="source-code"]:has(code[data-language="${language}"])`).filter({ hasText: source.split('\n').find((l) => /\w\(|curl /.test(l)) ?? source });

/** The sample `source` is shown, as written and highlighted (Redoc's tokens), in one of the blocks. */
async function expectSampleShown(page: Page, language: string, source: string): Promise<Locator> {
  const blocks = sampleBlocks(page, language, source);
  await blocks.first().waitFor({ timeout: 10_000 });
  const texts = await blocks.locator('code').evaluateAll((codes) => codes.map((c) => (c as HTMLElement).innerText.replace(/\s+$/, '')));
  expect(texts, 'sample text').toContain(source);
  const shown = blocks.nth(texts.indexOf(source));
  expect(await shown.locator('span.th-token').count(), 'highlighted tokens').toBeGreaterThan(2);
  return shown;
}

/** Redoc's operation heading: an h2 whose text is the summary (its anchor icon has no text). */
const operationHeading = (page: Page, summary: string) =>
  page.locator('h2').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(summary)}\\s*$`) }).first();

/** A sidebar group's state, from its chevron: open (down) or closed (right). */
const groupOpen = (entry: Locator) => entry.locator('[data-component-name="icons/ChevronDownIcon/ChevronDownIcon"]').count().then((n) => n > 0);

/**
 * Opens a tag's group in Redoc's sidebar. The tag's entry toggles, and Redoc also opens the group of the section
 * scrolled into view on its own, so a blind click can close a group that was already open: read the group's state
 * (its chevron) and click only a closed group, then wait for it to show as open before looking again.
 */
async function expandTag(page: Page, tag: string, firstOperation: Locator): Promise<void> {
  const entry = page.getByRole('link', { name: tag, exact: true }).first();
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await groupOpen(entry)) {
      await firstOperation.waitFor({ state: 'attached', timeout: 10_000 });
      return;
    }
    await entry.click();
    // Bounded: a group Redoc closed again meanwhile is read and clicked once more.
    await entry.locator('[data-component-name="icons/ChevronDownIcon/ChevronDownIcon"]').waitFor({ state: 'attached', timeout: 5_000 }).catch(() => undefined);
  }
  throw new Error(`the sidebar group "${tag}" does not open`);
}

/**
 * Waits, inside the page, for an operation's heading and its client call (`source`, exactly, highlighted with more
 * than two of Redoc's tokens). Resolves with what is missing, or undefined.
 */
async function waitForOperation(page: Page, summary: string, source: string): Promise<string | undefined> {
  const found = await page
    .waitForFunction(
      ({ summary, source }) => {
        const heading = [...document.querySelectorAll('h2')].some((h) => h.textContent?.trim() === summary);
        const sample = [...document.querySelectorAll('pre[data-testid="source-code"]:has(code[data-language="ts"])')].find(
          (pre) => (pre.querySelector('code') as HTMLElement | null)?.innerText.replace(/\s+$/, '') === source,
        );
        return heading && sample !== undefined && sample.querySelectorAll('span.th-token').length > 2;
      },
      { summary, source },
      { timeout: 10_000 },
    )
    .then(() => true)
    .catch(() => false);
  if (found) return undefined;
  const heading = await operationHeading(page, summary).count();
  return heading === 0 ? `no heading "${summary}"` : 'its client call is not shown, highlighted, as written';
}

async function expectSiteBar(page: Page): Promise<void> {
  // The bar's own links (a phone's menu repeats them, with the guides).
  const targets = await page.$$eval('nav.site-bar > a, nav.site-bar > .references > a', (links) => links.map((a) => a.getAttribute('href')));
  expect(targets).toEqual(['index.html', ...referencePages]);
}

describe.skipIf(skipBrowserTests)('docs site in Chromium, offline', () => {
  const site = useBuiltSite();

  // Our own pages (landing, guides, changelog, assumptions, SOAP reference) are read one after the other in one shared
  // page; each test starts from a clean record of problems.
  let shared: OfflinePage | undefined;
  async function visit(path: string): Promise<OfflinePage> {
    if (!shared) return (shared = await openOffline(site.browser, site.url, path));
    for (const list of Object.values(shared.problems)) list.length = 0;
    await shared.page.goto(new URL(path, site.url).href, { waitUntil: 'load' });
    return shared;
  }
  afterAll(async () => {
    await shared?.context.close();
  });

  it('builds exactly the landing page, one page per contract, one per guide, the changelog and the assumptions', () => {
    expect(builtPages).toEqual(['index.html', notFoundPage, ...referencePages, ...guides.map((g) => g.page), changelogPage.page, confirmPage.page].sort());
  });

  it('the "Confirm with the operator" page is clean offline, with working links, and current in the navigation', async () => {
    const opened = await visit(confirmPage.page);
    const { page } = opened;
    await screenshot(page, confirmPage.page.replace('.html', ''));
    await expectClean(opened);
    await expectSiteBar(page);
    await expectLinksResolve(page, confirmPage.page);
    expect(await page.locator('main h1').textContent()).toBe(confirmPage.title);
    expect(await page.locator(`nav.guides a[href="${confirmPage.page}"][aria-current="page"]`).count()).toBe(1);
    expect(await page.locator('main section.assumption').count()).toBeGreaterThan(0);
  });

  it('the changelog page is clean offline, with working links, and current in the navigation', async () => {
    const opened = await visit(changelogPage.page);
    const { page } = opened;
    await screenshot(page, changelogPage.page.replace('.html', ''));
    await expectClean(opened);
    await expectSiteBar(page);
    await expectLinksResolve(page, changelogPage.page);
    expect(await page.locator('main h1').textContent()).toBe(changelogPage.title);
    expect(await page.locator(`nav.guides a[href="${changelogPage.page}"][aria-current="page"]`).count()).toBe(1);
    expect(await page.locator('main tr[data-month]').count()).toBeGreaterThan(0);
  });

  it('landing page links every reference page and guide and lists every package with its version', async () => {
    const opened = await visit('index.html');
    const { page } = opened;
    await screenshot(page, 'index');
    await expectClean(opened);
    await expectSiteBar(page);
    await expectLinksResolve(page, 'index.html');
    const mainLinks = await page.$$eval('main a[href]', (links) => links.map((a) => a.getAttribute('href')));
    for (const target of [...referencePages, ...guides.map((g) => g.page)]) expect(mainLinks).toContain(target);
    const rows = await page.$$eval('main table tbody tr', (trs) => (trs as HTMLTableRowElement[]).map((tr) => [...tr.cells].slice(0, 2).map((td) => td.textContent)));
    const published = readdirSync(paths.packages)
      .filter((dir) => existsSync(join(paths.packages, dir, 'package.json')))
      .map((dir) => JSON.parse(readFileSync(join(paths.packages, dir, 'package.json'), 'utf8')) as { name: string; version: string; private?: boolean })
      .filter((pkg) => !pkg.private);
    expect(published.length).toBeGreaterThan(0);
    for (const pkg of published) expect(rows).toContainEqual([pkg.name, pkg.version]);
  });

  describe.each(rest)('$title ($page)', (contract) => {
    const spec = specs.get(contract.page)!;
    const byTag = new Map<string, SpecOperation[]>();
    for (const operation of spec.operations) byTag.set(operation.tag, [...(byTag.get(operation.tag) ?? []), operation]);

    const samples = new Map(builtOperations(builtDefinition(contract.page)).map((op) => [op.operationId, op.codeSamples]));
    const sampleOf = (operationId: string, lang: string): CodeSample | undefined => samples.get(operationId)?.find((s) => s.lang === lang);

    // One page for the tests of this contract, in order (Redoc takes seconds to render a page on a loaded machine):
    // the operations, then the search, then the copy buttons (which switch the sample panel to curl, last).
    let opened: OfflinePage;
    beforeAll(async () => {
      opened = await openOffline(site.browser, site.url, contract.page);
      await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
      // Clicks before Redoc has hydrated the prerendered page would follow its plain links.
      await opened.page.locator('html[data-redoc="hydrated"]').waitFor({ state: 'attached' });
    });
    afterAll(async () => {
      await opened?.context.close();
    });

    it('renders offline with every operation of the spec reachable from the sidebar, and its client call', async () => {
      expect(spec.operations.length).toBeGreaterThan(0);
      const { page } = opened;
      const title = page.locator('h1').filter({ hasText: spec.title });
      expect(await title.first().textContent()).toContain(spec.version);
      await expectSiteBar(page);
      if (contract.related) expect(await page.locator(`a[href="${contract.related}"]`).count()).toBeGreaterThan(1);
      await screenshot(page, contract.page.replace('.html', ''));

      const missing: string[] = [];
      for (const [tag, operations] of byTag) {
        // Untagged operations sit at the top level of Redoc's sidebar: nothing to expand.
        const sidebarLink = (operation: SpecOperation) =>
          page.locator(`a[href$="/${operation.operationId.toLowerCase()}"]`).filter({ hasText: operation.summary }).first();
        if (tag) await expandTag(page, tag, sidebarLink(operations[0]!));
        for (const operation of operations) {
          const link = sidebarLink(operation);
          if ((await link.count()) === 0) {
            missing.push(`${operation.operationId} (no sidebar entry under ${tag})`);
            continue;
          }
          const typescript = sampleOf(operation.operationId, 'TypeScript');
          if (!typescript) {
            missing.push(`${operation.operationId} (no TypeScript sample in the page's definition)`);
            continue;
          }
          // The first entry of each group by a real mouse click (the entry is visible and nothing covers it); the
          // others by the entry's own click(), once it shows on screen (a fifth of the time on a loaded machine).
          if (operation === operations[0]) await link.click();
          else if (!(await link.evaluate((a) => (a as HTMLElement).checkVisibility() && ((a as HTMLElement).click(), true)))) {
            missing.push(`${operation.operationId} (its sidebar entry is hidden)`);
            continue;
          }
          // The operation's heading and its client call, highlighted, in one wait inside the page.
          const problem = await waitForOperation(page, operation.summary, typescript.source);
          if (problem) missing.push(`${operation.operationId} (${problem})`);
          else if (operation === spec.operations[0]) await screenshot(page, `${contract.page.replace('.html', '')}-operation`);
        }
      }
      expect(missing, 'operations of the spec missing from the page').toEqual([]);
      await expectClean(opened);
    });

    it('search finds an operation of every tag and opens it', async () => {
      const { page } = opened;
      for (const [tag, operations] of byTag) {
        const target = operations[0];
        if (!target) continue;
        await page.getByText('Search', { exact: false }).first().click();
        const input = page.getByPlaceholder('Search docs...');
        await input.fill(target.summary);
        const hit = page
          .locator('a[data-component-name="Search/SearchItem"]')
          .filter({ hasText: target.summary })
          .first();
        await hit.waitFor({ timeout: 10_000 }).catch(() => {
          throw new Error(`search for "${target.summary}" (tag ${tag}) found nothing`);
        });
        if (tag === byTag.keys().next().value) await screenshot(page, `${contract.page.replace('.html', '')}-search`);
        // The first hit by a real mouse click, the others by the result's own click() (faster, as in the sidebar).
        if (tag === byTag.keys().next().value) await hit.click();
        else await hit.evaluate((a) => (a as HTMLElement).click());
        await page.waitForURL((url) => decodeURIComponent(url.hash).toLowerCase().endsWith(`/${target.operationId.toLowerCase()}`), { timeout: 10_000 });
        await operationHeading(page, target.summary).waitFor({ timeout: 10_000 });
      }
      await expectClean(opened);
    });

    it('samples can be copied with Redoc\'s button, and switched to curl', async () => {
      const { page } = opened;
      const [tag, operations] = [...byTag][0] ?? [];
      const operation = operations?.[0];
      expect(operation).toBeDefined();
      const link = page.locator(`a[href$="/${operation!.operationId.toLowerCase()}"]`).filter({ hasText: operation!.summary }).first();
      if (tag) await expandTag(page, tag, link);
      await link.click();
      await operationHeading(page, operation!.summary).waitFor({ timeout: 10_000 });

      const typescript = sampleOf(operation!.operationId, 'TypeScript')?.source ?? '';
      const shown = await expectSampleShown(page, 'ts', typescript);
      await shown.locator('xpath=ancestor::*[@data-component-name="CodeBlock/CodeBlock"][1]').locator('[data-component-name="Buttons/CopyButton"]').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(typescript);
      await screenshot(page, `${contract.page.replace('.html', '')}-sample-typescript`);

      await page.getByRole('button', { name: contract.packageName }).first().click();
      await page.getByRole('option', { name: 'curl' }).or(page.getByRole('menuitem', { name: 'curl' })).first().click();
      const curl = sampleOf(operation!.operationId, 'curl')?.source ?? '';
      const curlShown = await expectSampleShown(page, 'shell', curl);
      await curlShown.locator('xpath=ancestor::*[@data-component-name="CodeBlock/CodeBlock"][1]').locator('[data-component-name="Buttons/CopyButton"]').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);
      await screenshot(page, `${contract.page.replace('.html', '')}-sample-curl`);
      await expectClean(opened);
    });
  });

  describe.each(soap)('$title ($page)', (contract) => {
    it('shows every operation, element and type of the WSDL and XSD, and links the REST page', async () => {
      // Names are read with plain patterns, independently of the generator's parser.
      const wsdl = readFileSync(join(paths.repoRoot, contract.wsdl), 'utf8');
      const xsdFiles = [...wsdl.matchAll(/schemaLocation="([^"]+)"/g)].map((m) => join(paths.repoRoot, contract.wsdl, '..', m[1] ?? ''));
      const xsd = xsdFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
      const portTypes = [...wsdl.matchAll(/<wsdl:portType[\s\S]*?<\/wsdl:portType>/g)].map((m) => m[0]).join('\n');
      const operations = [...portTypes.matchAll(/<wsdl:operation name="([^"]+)"/g)].map((m) => m[1]);
      // Top-level definitions are indented by exactly one level in our schema files.
      const elements = [...xsd.matchAll(/^ {2}<xs:element name="([^"]+)"/gm)].map((m) => m[1]);
      const types = [...xsd.matchAll(/^ {2}<xs:(?:complex|simple)Type name="([^"]+)"/gm)].map((m) => m[1]);
      expect(operations.length).toBeGreaterThan(0);
      expect(elements.length).toBeGreaterThan(0);

      const opened = await visit(contract.page);
      const { page } = opened;
      await screenshot(page, contract.page.replace('.html', ''));
      await expectClean(opened);
      await expectSiteBar(page);
      await expectLinksResolve(page, contract.page);
      const headingsIn = (section: string) =>
        page.$$eval(`section.${section} > h3`, (hs) => hs.map((h) => h.textContent ?? ''));
      expect((await headingsIn('operation')).sort()).toEqual([...operations].sort());
      expect((await headingsIn('element')).sort()).toEqual([...elements].sort());
      const typeHeadings = await headingsIn('type');
      for (const type of types) expect(typeHeadings).toContain(type);
      if (contract.related) expect(await page.locator(`main a[href="${contract.related}"]`).count()).toBeGreaterThan(0);
      // Every field row says how often it occurs.
      const occurrences = await page.$$eval('table.fields tbody tr td:nth-child(3)', (cells) => cells.map((c) => c.textContent ?? ''));
      expect(occurrences.length).toBeGreaterThan(0);
      for (const occurs of occurrences) expect(occurs).toMatch(/^\d+(\.\.(\d+|unbounded))? \((required|optional|optional, repeatable|repeatable)\)$/);
    });
  });

  describe.each(guides)('guide $page', (guide) => {
    it('renders its title and every section heading, with working links', async () => {
      const opened = await visit(guide.page);
      const { page } = opened;
      await screenshot(page, guide.page.replace('.html', ''));
      await expectClean(opened);
      await expectSiteBar(page);
      await expectLinksResolve(page, guide.page);
      const expected = markdownHeadings(guide.markdown);
      expect(await page.locator('main h1').textContent()).toBe(guide.title);
      const rendered = await page.$$eval('main h2', (hs) => hs.map((h) => h.textContent ?? ''));
      expect(rendered).toEqual(expected.filter((h) => h.depth === 2).map((h) => h.text));
      expect(await page.locator(`nav.guides a[href="${guide.page}"][aria-current="page"]`).count()).toBe(1);
    });
  });
});

// Outside CI without Chromium, the skip carries the install hint (it is also printed when the tests are collected).
if (skipBrowserTests) {
  describe('docs site in Chromium', () => {
    it.skip(installHint, () => {});
  });
}
