// The Markdown renderer of the guides: markdown-it with tables, heading anchors, and links between guide sources
// (`02-card-payments.md#section`) rewritten to the built pages (`card-payments.html#section`).
import MarkdownIt from 'markdown-it';

/** @param {string} text */
export const slugify = (text) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * @param {Map<string, string>} pageOfSource guide source file name -> built page file name
 */
export function createMarkdownRenderer(pageOfSource) {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

  md.core.ruler.push('heading_ids', (state) => {
    const used = new Set();
    state.tokens.forEach((token, index) => {
      if (token.type !== 'heading_open') return;
      const base = slugify(state.tokens[index + 1]?.content ?? '') || 'section';
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      token.attrSet('id', id);
    });
  });

  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const href = token?.attrGet('href');
    if (token && href && !/^[a-z]+:/i.test(href)) {
      const [file = '', hash] = href.split('#');
      const source = file.replace(/^\.\//, '');
      if (source.endsWith('.md')) {
        const page = pageOfSource.get(source);
        if (!page) throw new Error(`${env?.source ?? 'a guide'} links to ${href}, which is not a guide`);
        token.attrSet('href', hash ? `${page}#${hash}` : page);
      }
    }
    return defaultLinkOpen(tokens, idx, options, env, self);
  };

  // Fences keep only the language as a class: extra words of the info string (`ts runnable`) drive the sample tests.
  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token) token.info = token.info.split(/\s+/)[0] ?? '';
    return defaultFence ? defaultFence(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };

  return md;
}
