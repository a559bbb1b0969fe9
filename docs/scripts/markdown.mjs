// The Markdown renderer of the guides: markdown-it with tables; heading ids and their anchor links (markdown-it-anchor),
// collected for the page's contents list; code highlighted at build time (./highlight.mjs); links between guide sources
// (`02-card-payments.md#section`) rewritten to the built pages (`card-payments.html#section`); an operation named in
// inline code (`createTransaction`, `POST /transactions`, `client.transactions.create()`) linked to its reference
// entry, and the operations a code sample calls listed under it; and diagram markers
// (`<!-- diagram: state alias-status -->` on a line of its own) replaced by the SVG drawn from the contracts; the
// reference's words marked «…» rendered as quotations (./quotes.mjs); images (`![…](images/x.png)`) checked to exist,
// sized and loaded lazily (./guide-images.mjs).
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import { diagramMarker } from './diagrams/index.mjs';
import { guideImage } from './guide-images.mjs';
import { escapeHtml } from './html.mjs';
import { referenceQuotes } from './quotes.mjs';
import { operationNamer, operationsCalledIn } from './reference/operation-index.mjs';
import { slugify } from './slug.mjs';

export { slugify };

/**
 * @typedef {{ level: number, id: string, title: string }} Heading
 */

/**
 * @param {Map<string, string>} pageOfSource guide source file name -> built page file name
 * @param {Map<string, { render: () => string }>} [diagrams] the diagrams markers may name, by `<kind> <name>`
 * @param {{ highlight?: import('./highlight.mjs').Highlight,
 *   operations?: import('./reference/operation-index.mjs').ReferenceOperation[] }} [options]
 *   `highlight`: without it code stays plain; `operations`: the reference's operations to link
 */
export function createMarkdownRenderer(pageOfSource, diagrams = new Map(), { highlight, operations = [] } = {}) {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  // «The reference's words» become a quotation (./quotes.mjs).
  md.use(referenceQuotes);

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

  // Ids from the heading's source text (links between guides use them: keep the rule), a second "Limits" gets
  // `limits-2`; the heading's text becomes the link to itself.
  md.use(anchor, {
    slugify,
    uniqueSlugStartIndex: 2,
    tabIndex: false,
    permalink: anchor.permalink.headerLink({ class: 'anchor' }),
  });

  // `<!-- side by side -->` on a line of its own, right before two code blocks (the client call, then curl): the two
  // are shown side by side on a wide screen, one above the other on a narrow one, each with its label.
  md.core.ruler.push('side_by_side', (state) => {
    const tokens = state.tokens;
    const labels = /** @type {Record<string, string>} */ ({ ts: 'TypeScript', sh: 'curl', json: 'JSON', xml: 'XML' });
    const html = (/** @type {string} */ content) => Object.assign(new state.Token('html_block', '', 0), { content, block: true });
    for (let i = 0; i + 2 < tokens.length; i++) {
      if (tokens[i]?.type !== 'paragraph_open' || !/^<!--\s*side by side\s*-->$/.test(tokens[i + 1]?.content.trim() ?? '')) continue;
      const pair = [tokens[i + 3], tokens[i + 4]];
      if (!pair.every((t) => t?.type === 'fence')) throw new Error(`${state.env?.source ?? 'a guide'}: <!-- side by side --> must be followed by two code blocks`);
      const side = (/** @type {import('markdown-it').Token} */ fence) => {
        const language = fence.info.trim().split(/\s+/)[0] ?? '';
        return [html(`<div class="side"><p class="side-label">${escapeHtml(labels[language] ?? language)}</p>\n`), fence, html('</div>\n')];
      };
      tokens.splice(i, 5, html('<div class="side-by-side">\n'), ...side(/** @type {any} */ (pair[0])), ...side(/** @type {any} */ (pair[1])), html('</div>\n'));
    }
  });

  // A blockquote that opens with "**Our assumption" is a callout of its own kind (styled by the layout).
  md.core.ruler.push('assumption_callouts', (state) => {
    state.tokens.forEach((token, i) => {
      const inline = state.tokens[i + 2];
      if (token.type === 'blockquote_open' && inline?.type === 'inline' && /^\*\*Our assumption/i.test(inline.content)) token.attrJoin('class', 'assumption');
    });
  });

  const named = operationNamer(operations);
  // Inline code naming an operation becomes a link to its reference entry (not inside a link already).
  md.core.ruler.push('operation_links', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      let insideLink = 0;
      block.children = block.children.flatMap((token) => {
        if (token.type === 'link_open') insideLink++;
        if (token.type === 'link_close') insideLink--;
        const operation = token.type === 'code_inline' && insideLink === 0 ? named(token.content) : undefined;
        if (!operation) return [token];
        const open = new state.Token('link_open', 'a', 1);
        open.attrSet('href', operation.href);
        open.attrSet('class', 'operation');
        open.attrSet('title', `${operation.title}: ${operation.contractTitle}`);
        return [open, token, new state.Token('link_close', 'a', -1)];
      });
    }
  });

  // An image of the guides' folder: it must be there; drawn at its size, loaded when scrolled to. `env.images`
  // collects what the build copies into the site.
  const defaultImage = md.renderer.rules.image ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = token?.attrGet('src') ?? '';
    if (token) {
      const image = guideImage(src, env?.source ?? 'a guide');
      token.attrSet('width', String(image.width));
      token.attrSet('height', String(image.height));
      token.attrSet('loading', 'lazy');
      token.attrSet('decoding', 'async');
      env?.images?.add(src);
    }
    return defaultImage(tokens, idx, options, env, self);
  };

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

  // Fences keep only the language (extra words of the info string, `ts runnable`, drive the sample tests), are
  // highlighted, and list under them the operations they call.
  md.renderer.rules.fence = (tokens, idx) => {
    const token = /** @type {import('markdown-it').Token} */ (tokens[idx]);
    const language = token.info.split(/\s+/)[0] ?? '';
    const code = highlight
      ? highlight(token.content, language)
      : `<pre><code${language ? ` class="language-${escapeHtml(language)}"` : ''}>${escapeHtml(token.content)}</code></pre>\n`;
    const called = operationsCalledIn(operations, token.content);
    const reference = called.length
      ? `<p class="sample-operations">In the reference: ${called.map((op) => `<a class="operation" href="${escapeHtml(op.href)}"><code>${escapeHtml(op.clientMethod ?? op.operationId)}</code></a> (${escapeHtml(op.title)})`).join(', ')}</p>\n`
      : '';
    return `<div class="sample"${language ? ` data-language="${escapeHtml(language)}"` : ''}>${code}</div>\n${reference}`;
  };

  return md;
}

/**
 * Renders a guide, with the headings it holds (for the page's contents list).
 * @param {MarkdownIt} md a renderer from createMarkdownRenderer
 * @param {string} markdown
 * @param {string} source the guide's file name, for errors
 * @param {Set<string>} [images] collects the images it shows (their `src`), for the build to copy
 */
export function renderGuide(md, markdown, source, images = new Set()) {
  const env = { source, images };
  const tokens = md.parse(markdown, env);
  /** @type {Heading[]} */
  const headings = tokens.flatMap((token, i) => {
    const id = token.type === 'heading_open' ? token.attrGet('id') : null;
    const text = (tokens[i + 1]?.children ?? []).filter((t) => t.type === 'text' || t.type === 'code_inline').map((t) => t.content).join('');
    return id ? [{ level: Number(token.tag.slice(1)), id, title: text }] : [];
  });
  return { html: md.renderer.render(tokens, md.options, env), headings };
}
