// Syntax highlighting of code blocks at build time, with Shiki: every token carries its colour for the light theme and,
// as a CSS variable, for the dark one (the page's stylesheet switches between them). No script runs in the browser.
import { createHighlighter } from 'shiki';

const themes = { light: 'github-light', dark: 'github-dark' };

/** The languages the guides and generated samples use; a block in any other language stays plain text. */
const languages = ['ts', 'js', 'json', 'sh', 'xml', 'yaml', 'http'];

/**
 * @typedef {(code: string, language: string) => string} Highlight returns a complete `<pre class="shiki">` block
 */

/** @returns {Promise<Highlight>} */
export async function loadHighlighter() {
  const highlighter = await createHighlighter({ themes: Object.values(themes), langs: languages });
  const known = new Set(highlighter.getLoadedLanguages());
  // Shiki 4.6 gives the first block of each language the light colour of its first token throughout (the dark colours
  // are right); every later block is right. One throwaway block per language first (test/highlight.test.ts).
  for (const lang of languages) highlighter.codeToHtml('let a = "b";', { lang, themes });
  return (code, language) =>
    highlighter.codeToHtml(code.replace(/\n$/, ''), { lang: known.has(language) ? language : 'text', themes });
}
