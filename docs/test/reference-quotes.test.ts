// Every sentence of the site that says what the reference says quotes it: the words are marked «…», and each marked
// quote is found word for word in the reference copies (whitespace normalised). Checked in the guides, in every
// description of the specs (YAML, WSDL and XSD), and in the generated pages (our HTML pages, and the documents the
// Redoc pages render). A made-up quote and an unquoted attribution each fail (the first tests below).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openApiContracts, controlContracts } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { changelogPage } from '../scripts/changelog-page.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { builtDefinition } from './support/built-reference.js';
import { findQuote, quoteProblems, readReference, referenceDir, type QuoteProblem } from './support/reference-quotes.js';

const dir = referenceDir();
const missingHint = 'the reference copies (payments-api.md, file-exchange.md) are not found: set PAYKIT_REFERENCE_DIR. With CI=true this fails.';
const reference = dir ? readReference(dir) : undefined;
const show = (problems: QuoteProblem[]) => problems.map((p) => `${p.where}: ${p.problem}`);

/** Every string of a YAML document, with its path, for the descriptions (and notes, titles, assumptions) of a spec. */
function yamlStrings(node: unknown, path: string[] = []): { path: string; text: string }[] {
  if (typeof node === 'string') return [{ path: path.join('.'), text: node }];
  if (Array.isArray(node)) return node.flatMap((item, i) => yamlStrings(item, [...path, String(i)]));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([key, value]) => yamlStrings(value, [...path, key]));
  return [];
}

const files = (folder: string): string[] =>
  readdirSync(folder).flatMap((entry) => (statSync(join(folder, entry)).isDirectory() ? files(join(folder, entry)) : [join(folder, entry)]));

/** The text of the documentation elements of a WSDL or XSD. */
const xmlDocumentation = (xml: string) => [...xml.matchAll(/<(?:xs|wsdl):documentation>([\s\S]*?)<\/(?:xs|wsdl):documentation>/g)].map((m) => m[1] ?? '');

const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };
/** A built page's text as Markdown-ish prose: its quotes back to «…», its blocks on lines of their own, tags dropped. */
function pageProse(html: string): string {
  return html
    .replace(/<(script|style|svg|pre)\b[\s\S]*?<\/\1>/g, '\n\n')
    .replace(/<q class="reference"[^>]*>/g, '«')
    .replace(/<\/q>/g, '»')
    .replace(/<\/?(?:p|li|tr|td|th|h[1-6]|section|div|blockquote|dd|dt|table|ul|ol|nav|main|header|footer|figcaption)\b[^>]*>/g, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(?:lt|gt|quot|#39|amp);/g, (e) => entities[e] ?? e);
}

describe.skipIf(!reference && process.env.CI !== 'true')('the reference\'s words, quoted', () => {
  it('the reference copies are there', () => {
    expect(reference, missingHint).toBeDefined();
  });

  describe('the check itself', () => {
    it('finds a quote word for word, across a line break, with a word left out, or a first letter in another case', () => {
      expect(findQuote('unexpected condition; do not resend;\n  part of the work may have been done', reference!)).toBe('payments-api.md');
      expect(findQuote('Files should be deleted after processing … only unprocessed files', reference!)).toBe('file-exchange.md');
      expect(findQuote('the browser may not call this API with script requests', reference!)).toBe('payments-api.md');
    });

    it('fails a made-up quote', () => {
      const made = 'A sentence. The reference says «the service answers every request within one second».';
      expect(show(quoteProblems('made-up.md', made, reference!))).toEqual(['made-up.md: not in the reference: «the service answers every request within one second»']);
      // One changed word is enough.
      expect(quoteProblems('x.md', 'The reference says «unexpected condition; resend; part of the work may have been done».', reference!)).toHaveLength(1);
    });

    it('fails an attribution without a quote, and takes one with a quote, or a denial', () => {
      expect(show(quoteProblems('unquoted.md', 'The reference says a 500 must not be resent.', reference!))).toEqual([
        'unquoted.md: says what the reference says without quoting it: "The reference says a 500 must not be resent."',
      ]);
      expect(quoteProblems('rule.md', "The reference's rule: wait before resending.", reference!)).toHaveLength(1);
      expect(quoteProblems('quoted.md', 'For a 500 the reference says «do not resend».', reference!)).toEqual([]);
      expect(quoteProblems('denial.md', 'The reference does not publish the signature algorithm, and publishes no test cards.', reference!)).toEqual([]);
    });

    it('fails a marker without its other half, and ignores code', () => {
      expect(show(quoteProblems('open.md', 'The reference says «do not resend.', reference!))[0]).toMatch(/quote opened without its other half/);
      expect(quoteProblems('code.md', '```ts\n// the reference says nothing here «made up»\n```', reference!)).toEqual([]);
    });
  });

  it('the guides quote the reference word for word wherever they say what it says', () => {
    expect(show(readGuides().flatMap((g) => quoteProblems(`guides/${g.source}`, g.markdown, reference!)))).toEqual([]);
  });

  it('so do the specs\' descriptions (YAML, WSDL and XSD)', () => {
    const problems: QuoteProblem[] = [];
    for (const file of files(join(paths.repoRoot, 'specs'))) {
      const where = relative(paths.repoRoot, file);
      if (/\.ya?ml$/.test(file)) {
        for (const { path, text } of yamlStrings(parse(readFileSync(file, 'utf8')))) problems.push(...quoteProblems(`${where} ${path}`, text, reference!));
      } else if (/\.(wsdl|xsd)$/.test(file)) {
        for (const text of xmlDocumentation(readFileSync(file, 'utf8'))) problems.push(...quoteProblems(where, text, reference!));
      }
    }
    expect(show(problems)).toEqual([]);
  });

  it('and the generated pages: our HTML pages, and the documents of the Redoc pages', () => {
    const problems: QuoteProblem[] = [];
    const redoc = [...openApiContracts, ...controlContracts].map((c) => c.docs.page);
    for (const page of readdirSync(paths.dist).filter((f) => f.endsWith('.html') && !redoc.includes(f))) {
      const prose = pageProse(readFileSync(join(paths.dist, page), 'utf8').replace(/^[\s\S]*?<main\b/, '<main'));
      // The changelog reprints the packages' release notes as they were published: its quotes are checked, but a
      // past note that names the reference without quoting it is history, not a page of ours to reword.
      const found = quoteProblems(page, prose, reference!);
      problems.push(...(page === changelogPage.page ? found.filter((p) => p.problem.startsWith('not in the reference')) : found));
    }
    // What a Redoc page renders: its definition's descriptions, Markdown with the quotes as <q> elements.
    for (const page of redoc) {
      for (const { path, text } of yamlStrings(builtDefinition(page))) {
        if (!path.includes('x-codeSamples')) problems.push(...quoteProblems(`${page} ${path}`, text.replace(/<q class="reference"[^>]*>/g, '«').replace(/<\/q>/g, '»'), reference!));
      }
    }
    expect(show(problems)).toEqual([]);
  });
});
