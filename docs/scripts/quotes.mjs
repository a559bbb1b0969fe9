// The reference's own words, marked where a sentence of ours says what the reference says: «…» (guillemets) in the
// guides' Markdown, in the specs' descriptions and in the WSDL/XSD documentation. The marker reads as a quotation in
// the raw files (and in the published specs, which keep it); the site renders it as a <q class="reference"> element.
// test/reference-quotes.test.ts checks every marked quote against the reference copies, word for word.
import { escapeHtml } from './html.mjs';

/** One marked quote: no marker inside it, at least one word. */
export const quoteMarker = /«([^«»]+)»/g;

/** The title a rendered quote carries (a reader's hover). */
export const quoteTitle = "The reference's words";

export const quoteOpen = `<q class="reference" title="${escapeHtml(quoteTitle)}">`;

/**
 * The marked quotes of a text, in order, and the problems of its markers (one left open or closed alone).
 * @param {string} text
 * @returns {{ quotes: string[], problems: string[] }}
 */
export function quotesOf(text) {
  const quotes = [...text.matchAll(quoteMarker)].map((m) => /** @type {string} */ (m[1]));
  const rest = text.replace(quoteMarker, '');
  const problems = [];
  for (const stray of rest.matchAll(/[«»]/g)) {
    const at = stray.index ?? 0;
    problems.push(`a ${stray[0] === '«' ? 'quote opened' : 'quote closed'} without its other half near "${rest.slice(Math.max(0, at - 30), at + 30)}"`);
  }
  return { quotes, problems };
}

/**
 * Markdown text (a spec description) with its quotes as <q> elements, for Redoc, which renders inline HTML.
 * @param {string} markdown
 */
export const quotesToHtml = (markdown) => markdown.replace(quoteMarker, (_whole, words) => `${quoteOpen}${words}</q>`);

/**
 * markdown-it plugin: the text between « and » (within one paragraph, cell or item) becomes a <q class="reference">
 * element; inline code and links inside it render as usual. A marker without its other half fails the render.
 * @param {import('markdown-it').default} md
 */
export function referenceQuotes(md) {
  md.core.ruler.push('reference_quotes', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children || !/[«»]/.test(block.content)) continue;
      const { problems } = quotesOf(block.content);
      if (problems.length) throw new Error(`${state.env?.source ?? 'a page'}: ${problems.join('; ')}`);
      block.children = block.children.flatMap((token) => {
        if (token.type !== 'text' || !/[«»]/.test(token.content)) return [token];
        return token.content.split(/([«»])/).filter(Boolean).map((piece) => {
          if (piece !== '«' && piece !== '»') {
            const text = new state.Token('text', '', 0);
            text.content = piece;
            return text;
          }
          const html = new state.Token('html_inline', '', 0);
          html.content = piece === '«' ? quoteOpen : '</q>';
          return html;
        });
      });
    }
  });
}
