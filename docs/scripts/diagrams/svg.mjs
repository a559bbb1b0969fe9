// The little SVG the diagrams need: escaped text, an estimate of its width (no font metrics at build time), and the
// arrow heads. Everything is inline markup with presentation attributes, so a page needs no script or stylesheet.
import { escapeHtml } from '../html.mjs';

export const font = 'system-ui, -apple-system, Segoe UI, sans-serif';
export const ink = '#1b1f24';
export const muted = '#57606a';
export const accent = '#0a58ca';

/**
 * Width of a line of text at `size` px: a generous average glyph width, so labels never spill out of their boxes.
 * @param {string} text
 * @param {number} [size]
 */
export const textWidth = (text, size = 13) => Math.ceil(String(text).length * size * 0.6);

/**
 * @param {number} x
 * @param {number} y
 * @param {string} content
 * @param {{ size?: number, anchor?: 'start' | 'middle' | 'end', weight?: number, fill?: string, mono?: boolean }} [options]
 */
export function text(x, y, content, { size = 13, anchor = 'start', weight = 400, fill = ink, mono = false } = {}) {
  const family = mono ? 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' : font;
  return `<text x="${x}" y="${y}" font-size="${size}" font-family="${family}" font-weight="${weight}" text-anchor="${anchor}" fill="${fill}">${escapeHtml(content)}</text>`;
}

/**
 * The arrow head markers, with ids made unique per diagram so several diagrams can share a page.
 * @param {string} id
 */
export const markers = (id) =>
  `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">` +
  `<path d="M0,0 L10,5 L0,10 z" fill="${ink}"/></marker></defs>`;

/**
 * The outer element: a figure holding an accessible SVG whose title and description say what it shows.
 * @param {{ id: string, kind: string, name: string, title: string, description: string, width: number, height: number, body: string }} diagram
 */
export function figure({ id, kind, name, title, description, width, height, body }) {
  return (
    `<figure class="diagram" data-diagram="${escapeHtml(`${kind} ${name}`)}">` +
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<title id="${id}-title">${escapeHtml(title)}</title><desc id="${id}-desc">${escapeHtml(description)}</desc>` +
    markers(id) +
    body +
    `</svg><figcaption>${escapeHtml(title)}</figcaption></figure>`
  );
}

/**
 * Splits text into lines of at most `max` characters, at spaces.
 * @param {string} content
 * @param {number} max
 */
export function wrap(content, max) {
  const lines = [];
  let line = '';
  for (const word of content.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A name as a marker writes it: `aliasStatus` -> `alias-status`, `threeDSecure` -> `three-d-secure`.
 * @param {string} name
 */
export const kebab = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
