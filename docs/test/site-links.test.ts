// Every internal link of the built site resolves, read from dist/ without a browser: a link to a page lands on a
// built file, and its #fragment on an id of our pages, or on a route Redoc knows on a reference page (an operation of
// its definition under a tag the prerendered page routes). And every operation a guide names in its text, as an
// operationId or as `METHOD /path` (read from the specs, not from the generator's index), links to its entry.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { controlContracts, openApiContracts, soapContracts } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { builtDefinition, builtOperations } from './support/built-reference.js';
import { readSpecSummary } from './support/spec-operations.js';

const built = existsSync(join(paths.dist, 'index.html'));
const pages = built ? readdirSync(paths.dist).filter((f) => f.endsWith('.html')).sort() : [];
const redocPages = [...openApiContracts, ...controlContracts].map((c) => c.docs.page);
const ownPages = pages.filter((p) => !redocPages.includes(p));

const read = (page: string) => readFileSync(join(paths.dist, page), 'utf8');
const decode = (text: string) => text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
const hrefsIn = (html: string) => [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((m) => decode(m[1] ?? ''));

/** The links of a page that we write: all of ours; on a Redoc page, our site bar and note (Redoc routes its own). */
function linksOf(page: string): string[] {
  const html = read(page);
  if (!redocPages.includes(page)) return hrefsIn(html);
  const bar = /<nav class="site-bar"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  const note = /<p class="related-protocol"[\s\S]*?<\/p>/.exec(html)?.[0] ?? '';
  return hrefsIn(bar + note);
}

const idsOf = new Map<string, Set<string>>();
const ids = (page: string) => {
  if (!idsOf.has(page)) idsOf.set(page, new Set([...read(page).matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1] ?? ''))));
  return idsOf.get(page)!;
};

/** The operations and webhooks of a Redoc page's definition: Redoc routes both under their first tag. */
const routedOperations = (page: string): { operationId: string; tags?: string[] }[] => {
  const definition = builtDefinition(page);
  const webhooks = Object.values((definition.webhooks ?? {}) as Record<string, Record<string, { operationId?: string; tags?: string[] }>>).flatMap((item) =>
    Object.values(item).flatMap((op) => (op?.operationId ? [{ operationId: op.operationId, ...(op.tags ? { tags: op.tags } : {}) }] : [])),
  );
  return [...builtOperations(definition), ...webhooks];
};

/** The routes Redoc answers on a reference page: `/<tag route>/<operationid>`, the tag routes as prerendered. */
const redocRoutes = new Map<string, Set<string>>();
const routes = (page: string) => {
  if (!redocRoutes.has(page)) {
    const html = read(page);
    const tagRoutes = new Set([...html.matchAll(/href="#?\/([a-z0-9-]+)"/g)].map((m) => m[1]));
    const operationIds = new Set(routedOperations(page).map((op) => op.operationId.toLowerCase()));
    const found = new Set<string>();
    for (const tag of tagRoutes) for (const id of operationIds) found.add(`/${tag}/${id}`);
    redocRoutes.set(page, found);
  }
  return redocRoutes.get(page)!;
};

/** Why a link is dead, or undefined when it resolves. */
function deadLink(page: string, href: string): string | undefined {
  if (/^data:/.test(href)) return undefined;
  if (/^[a-z]+:/i.test(href)) return 'an absolute link leaves the offline site';
  const [file = '', fragment] = href.split('#');
  const target = file || page;
  if (!existsSync(join(paths.dist, target))) return `no file ${target}`;
  if (fragment === undefined || fragment === '') return undefined;
  const id = decodeURIComponent(fragment);
  if (redocPages.includes(target)) {
    if (!routes(target).has(id)) return `${target} has no operation route ${id}`;
    // The route's tag must be the operation's own: the one Redoc lists it under.
    const op = routedOperations(target).find((o) => id.endsWith(`/${o.operationId.toLowerCase()}`));
    const tagRoute = id.split('/')[1];
    const tags = (op as { tags?: string[] } | undefined)?.tags ?? [];
    return tags.some((tag) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '-') === tagRoute) ? undefined : `${id} is not under the operation's tag`;
  }
  return ids(target).has(id) ? undefined : `${target} has no id ${id}`;
}

describe.skipIf(!built)('links of the built site', () => {
  it('finds the pages (run the docs build first)', () => {
    expect(ownPages).toContain('index.html');
  });

  it.each(pages)('every link we wrote on %s resolves', (page) => {
    const links = linksOf(page);
    expect(links.length).toBeGreaterThan(0);
    const dead = links.flatMap((href) => {
      const why = deadLink(page, href);
      return why ? [`${href}: ${why}`] : [];
    });
    expect(dead).toEqual([]);
  });

  it('the check catches a dead page, a dead anchor, and a route to no operation', () => {
    const guide = readGuides()[0]!.page;
    expect(deadLink(guide, 'no-such-page.html')).toMatch(/no file/);
    expect(deadLink(guide, `${guide}#no-such-section`)).toMatch(/has no id/);
    expect(deadLink(guide, 'payments.html#/transactions/nosuchoperation')).toMatch(/no operation route/);
    expect(deadLink(guide, 'payments.html#/aliases/createtransaction')).toMatch(/not under the operation's tag/);
    expect(deadLink(guide, 'https://example.com/')).toMatch(/leaves the offline site/);
  });
});

const specOps = built ? (await Promise.all(openApiContracts.map(async (c) => (await readSpecSummary(join(paths.repoRoot, c.root))).operations.map((op) => ({ ...op, page: c.docs.page }))))).flat() : [];

describe.skipIf(!built)('operations named in the guides', () => {
  const soapOps = soapContracts.flatMap((c) =>
    [...readFileSync(join(paths.repoRoot, c.wsdl), 'utf8').matchAll(/<wsdl:operation name="([^"]+)"/g)].map((m) => ({ operationId: m[1] ?? '', page: c.docs.page })),
  );
  const names = [...specOps.map((op) => op.operationId), ...new Set(soapOps.map((op) => op.operationId))];
  // A name two contracts share names no one operation.
  const unique = new Set(names.filter((name) => names.indexOf(name) === names.lastIndexOf(name)));
  const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
  const signatures = new Map(specOps.map((op) => [`${op.method.toUpperCase()} ${shape(op.path)}`, op.page]));

  /** The inline code of a guide's text (not in samples or headings), with the link around it if any. */
  const inlineCode = (html: string) =>
    [...html.replace(/<pre[\s\S]*?<\/pre>/g, '').replace(/<h(\d)[\s\S]*?<\/h\1>/g, '').matchAll(/(<a\b[^>]*>)?<code>([^<]*)<\/code>/g)].map((m) => ({
      link: /href="([^"]*)"/.exec(m[1] ?? '')?.[1],
      code: decode(m[2] ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
    }));

  it.each(readGuides().map((g) => g.page))('%s links every operation it names to the reference page that has it', (page) => {
    const unlinked = inlineCode(read(page)).flatMap(({ link, code }) => {
      const target = unique.has(code)
        ? [...specOps, ...soapOps].find((op) => op.operationId === code)?.page
        : signatures.get(shape(code));
      if (!target) return [];
      return link?.startsWith(`${target}#`) ? [] : [`${code} (${link ?? 'no link'}, expected ${target}#...)`];
    });
    expect(unlinked).toEqual([]);
  });
});
