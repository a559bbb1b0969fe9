// The check behind every sentence that says what the reference says: its words are marked «…» and must be found, word
// for word, in the reference copies (/work/shared/reference: payments-api.md and file-exchange.md), with whitespace
// normalised; and a sentence that attributes something to the reference ("the reference says / names / requires...",
// "the reference's rule") must carry such a quote. Denials ("the reference does not publish...", "publishes no...")
// are not attributions: they say what the reference leaves out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { quotesOf } from '../../scripts/quotes.mjs';
import { paths } from '../../scripts/site-paths.mjs';
import { attributes, sentencesOf } from './attribution.js';

/** Where the reference copies are: PAYKIT_REFERENCE_DIR, else `../shared/reference` beside the repository, else the machine's copy. */
export function referenceDir(): string | undefined {
  const candidates = [process.env.PAYKIT_REFERENCE_DIR, resolve(paths.repoRoot, '..', 'shared', 'reference'), '/work/shared/reference'];
  return candidates.find((dir): dir is string => dir !== undefined && existsSync(join(dir, 'payments-api.md')));
}

export interface Reference {
  /** Each reference file's text, whitespace normalised, by file name. */
  texts: Map<string, string>;
  /** Each file's lines (paragraphs, list items, table rows), whitespace normalised. */
  lines: Map<string, string[]>;
}

/** Whitespace runs become one space; backticks (inline code marks, which a rendered page drops) are left out. */
export const normalise = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();

export function readReference(dir: string): Reference {
  const texts = new Map<string, string>();
  const lines = new Map<string, string[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    texts.set(file, normalise(text));
    lines.set(file, text.split('\n').map(normalise).filter(Boolean));
  }
  return { texts, lines };
}

/**
 * Where a quote is found: the reference file, or undefined. A quote may leave words out with " … " (each part found in
 * order on one line of the reference); its first letter may differ in case (a quote that starts a sentence of ours).
 */
export function findQuote(quote: string, reference: Reference): string | undefined {
  const parts = normalise(quote).split(/\s*(?:…|\.\.\.)\s*/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const variants = (part: string) => [part, part.charAt(0).toUpperCase() + part.slice(1), part.charAt(0).toLowerCase() + part.slice(1)];
  for (const [file, lines] of reference.lines) {
    if (parts.length === 1) {
      if (variants(parts[0]!).some((v) => reference.texts.get(file)!.includes(v))) return file;
      continue;
    }
    for (const line of lines) {
      let from = 0;
      const inOrder = parts.every((part, i) => {
        const at = Math.max(...(i === 0 ? variants(part) : [part]).map((v) => line.indexOf(v, from)));
        if (at < 0) return false;
        from = at + part.length;
        return true;
      });
      if (inOrder) return file;
    }
  }
  return undefined;
}

export interface QuoteProblem {
  where: string;
  problem: string;
}

/**
 * The problems of one text (a guide's Markdown, a spec description, a page's text): each quote not found in the
 * reference, each stray marker, and each sentence that attributes something to the reference without a quote.
 */
export function quoteProblems(where: string, markdown: string, reference: Reference): QuoteProblem[] {
  const problems: QuoteProblem[] = [];
  // Code is not prose; a quote may run over the lines of a Markdown blockquote.
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/^[ \t]*>[ \t]?/gm, '');
  const { quotes, problems: markers } = quotesOf(prose);
  for (const problem of markers) problems.push({ where, problem });
  for (const quote of quotes) {
    if (!findQuote(quote, reference)) problems.push({ where, problem: `not in the reference: «${normalise(quote)}»` });
  }
  // A quote is one unit of its sentence, whatever full stops it holds.
  for (const sentence of sentencesOf(prose.replace(/«[^«»]+»/g, '«…»'))) {
    if (attributes(sentence) && !sentence.includes('«…»')) problems.push({ where, problem: `says what the reference says without quoting it: "${sentence}"` });
  }
  return problems;
}
