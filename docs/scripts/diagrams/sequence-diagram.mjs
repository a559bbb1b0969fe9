// A flow of the contract (as `readFlows` reads it) drawn as an SVG sequence diagram: one lifeline per actor, one
// arrow per step, top to bottom. Requests are solid arrows labelled with the operation, its method and path and the
// key it takes; webhook notifications and actions outside the API are dashed.
import { escapeHtml } from '../html.mjs';
import { accent, figure, ink, kebab, muted, text, textWidth } from './svg.mjs';

/**
 * @typedef {import('@paykit/contracts').Flow} Flow
 * @typedef {import('@paykit/contracts').FlowStep} FlowStep
 */

const margin = 24;
const headHeight = 40;
const rowHeight = 84;
const minGap = 200;

/** The key types of the contract's security schemes, in words. */
const keyNames = /** @type {Record<string, string>} */ ({ secretKey: 'secret key', publishableKey: 'publishable key' });

/** The line above the arrow and the lines below it. */
function labels(/** @type {FlowStep} */ step) {
  if (step.kind === 'operation' && step.operation) {
    const op = step.operation;
    const keys = op.security.map((s) => keyNames[s] ?? s).join(' or ');
    return { main: `${op.method} ${op.path}`, sub: [`${op.operationId}${keys ? `, ${keys}` : ''}`, step.description] };
  }
  if (step.kind === 'event') return { main: `webhook ${step.event}`, sub: [step.description] };
  return { main: step.action ?? '', sub: [step.description] };
}

/** The width a step's text needs along its arrow. */
function need(/** @type {FlowStep} */ step) {
  const { main, sub } = labels(step);
  const widths = [textWidth(main, 12), ...sub.map((line) => textWidth(line, 11))];
  if (step.condition) widths.push(textWidth(`if ${step.condition}`, 11));
  return Math.max(...widths) + 24;
}

/**
 * @param {Flow} flow
 * @returns {string} a <figure> holding the SVG
 */
export function renderSequenceDiagram(flow) {
  const id = `diagram-flow-${kebab(flow.name)}`;
  const actors = Object.keys(flow.actors);
  const index = (/** @type {string} */ actor) => actors.indexOf(actor);
  const headWidth = Math.max(...Object.values(flow.actors).map((label) => textWidth(label, 13) + 24));
  // Each gap between neighbouring lifelines is wide enough for the text of the steps that cross it: steps between
  // neighbours first, then wider steps spread what they still need over the gaps they cross.
  const gaps = actors.slice(1).map(() => Math.max(minGap, headWidth + 20));
  const bySpan = [...flow.steps].sort((a, b) => Math.abs(index(a.to) - index(a.from)) - Math.abs(index(b.to) - index(b.from)));
  for (const step of bySpan) {
    const lo = Math.min(index(step.from), index(step.to));
    const hi = Math.max(index(step.from), index(step.to));
    const crossed = gaps.slice(lo, hi).reduce((sum, g) => sum + g, 0);
    const missing = need(step) - crossed;
    if (missing > 0) for (let g = lo; g < hi; g++) gaps[g] = (gaps[g] ?? 0) + Math.ceil(missing / (hi - lo));
  }
  const lifeline = (/** @type {string} */ actor) => margin + headWidth / 2 + 28 + gaps.slice(0, index(actor)).reduce((sum, g) => sum + g, 0);
  const width = lifeline(actors[actors.length - 1] ?? '') + headWidth / 2 + margin;
  const top = margin + headHeight;
  const height = top + 16 + flow.steps.length * rowHeight + margin;

  const heads = actors.map((actor) => {
    const x = lifeline(actor);
    return (
      `<g data-actor="${escapeHtml(actor)}">` +
      `<rect x="${x - headWidth / 2}" y="${margin}" width="${headWidth}" height="${headHeight - 8}" rx="6" fill="#f6f8fa" stroke="${ink}"/>` +
      text(x, margin + 21, flow.actors[actor] ?? actor, { size: 13, anchor: 'middle', weight: 600 }) +
      `<line x1="${x}" y1="${top - 8}" x2="${x}" y2="${height - margin}" stroke="${muted}" stroke-dasharray="3 4"/></g>`
    );
  });

  const rows = flow.steps.map((step, i) => {
    const y = top + 16 + i * rowHeight;
    const x1 = lifeline(step.from);
    const x2 = lifeline(step.to);
    const left = Math.min(x1, x2);
    const arrowY = y + 36;
    const { main, sub } = labels(step);
    const request = step.kind === 'operation';
    const colour = request ? accent : ink;
    const tag = step.kind === 'operation' ? step.operation?.operationId : step.kind === 'event' ? step.event : 'action';
    return (
      `<g data-step="${i + 1}" data-${step.kind}="${escapeHtml(tag ?? '')}">` +
      text(margin, arrowY + 4, `${i + 1}`, { size: 12, weight: 700, fill: muted }) +
      (step.condition ? text(left + 8, y + 8, `if ${step.condition}`, { size: 11, fill: muted }) : '') +
      text(left + 8, y + 26, main, { size: 12, weight: 600, fill: colour, mono: request }) +
      `<line x1="${x1}" y1="${arrowY}" x2="${x2}" y2="${arrowY}" stroke="${colour}" stroke-width="1.5"${request ? '' : ' stroke-dasharray="6 4"'} marker-end="url(#${id}-arrow)"/>` +
      sub.map((line, j) => text(left + 8, arrowY + 16 + j * 15, line, { size: 11, fill: j === 0 && request ? colour : muted, mono: j === 0 && request })).join('') +
      '</g>'
    );
  });

  return figure({
    id,
    kind: 'flow',
    name: kebab(flow.name),
    title: flow.title,
    description: `${flow.description} Steps: ${flow.steps.map((s, i) => `${i + 1}. ${labels(s).main}`).join('; ')}.`,
    width,
    height,
    body: heads.join('') + rows.join(''),
  });
}
