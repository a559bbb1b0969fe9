// The Markdown renderer of the guides: markdown-it with tables, heading anchors, links between guide sources
// (`02-card-payments.md#section`) rewritten to the built pages (`card-payments.html#section`), and diagram markers
// (`<!-- diagram: state alias-status -->` on a line of its own) replaced by the SVG drawn from the contracts.
import MarkdownIt from 'markdown-it';
import { diagramMarker } from './diagrams/index.mjs';

/** @param {string} text */
export const slugify = (text) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * @param {Map<string, string>} pageOfSource guide source file name -> built page file name
 * @param {Map<string, { render: () => string }>} [diagrams] the diagrams markers may name, by `<kind> <name>`
 */
export function createMarkdownRenderer(pageOfSource, diagrams = new Map()) {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

  // Raw HTML stays off; a paragraph that is exactly a diagram marker becomes the diagram. A marker naming no known
  // diagram, or a malformed one, fails the build, naming the guide.
  md.core.ruler.push('diagrams', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i + 2 < tokens.length; i++) {
      const inline = tokens[i + 1];
      if (tokens[i]?.type !== 'paragraph_open' || inline?.type !== 'inline' || !/^<!--\s*diagram\b/.test(inline.content.trim())) continue;
      const where = state.env?.source ?? 'a guide';
      const match = diagramMarker.exec(inline.content.trim());
      if (!match) throw new Error(`${where}: malformed diagram marker ${JSON.stringify(inline.content.trim())}; write <!-- diagram: KIND NAME -->`);
      const key = `${match[1]} ${match[2]}`;
      const diagram = diagrams.get(key);
      if (!diagram) throw new Error(`${where}: unknown diagram "${key}"; known: ${[...diagrams.keys()].join(', ') || 'none'}`);
      const block = new state.Token('html_block', '', 0);
      block.content = `${diagram.render()}\n`;
      block.block = true;
      tokens.splice(i, 3, block);
    }
  });

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
