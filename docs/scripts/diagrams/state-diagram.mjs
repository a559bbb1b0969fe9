// A state machine of the contract (as `readStateMachines` reads it) drawn as an SVG state diagram: the states in
// columns by how many transitions they are from the start, every transition an arrow with a number, and a legend
// under the drawing that says what each number is (trigger, condition, answer, webhook). Numbers instead of labels on
// the arrows keep the drawing legible however long the reference's wording is.
import { escapeHtml } from '../html.mjs';
import { accent, figure, ink, kebab, muted, text, textWidth, wrap } from './svg.mjs';

/**
 * @typedef {import('@paykit/contracts').StateMachine} StateMachine
 * @typedef {import('@paykit/contracts').Transition} Transition
 * @typedef {{ id: string, label: string, x: number, y: number, w: number, h: number }} Box
 */

const start = '\u0000start';
const boxHeight = 38;
const columnGap = 130;
const rowGap = 34;
const margin = 24;
const legendLine = 18;
const legendWrap = 96;

/**
 * The state each state is first reached in, counting transitions from the start (null).
 * @param {StateMachine} machine
 */
function depths(machine) {
  /** @type {Map<string, number>} */
  const depth = new Map([[start, 0]]);
  const queue = [start];
  while (queue.length) {
    const node = /** @type {string} */ (queue.shift());
    for (const t of machine.transitions) {
      if (!t.from.some((f) => (f ?? start) === node)) continue;
      for (const to of t.to ?? []) {
        if (!depth.has(to)) {
          depth.set(to, (depth.get(node) ?? 0) + 1);
          queue.push(to);
        }
      }
    }
  }
  const deepest = Math.max(...depth.values());
  for (const state of Object.keys(machine.states)) if (!depth.has(state)) depth.set(state, deepest + 1);
  return depth;
}

/** Where the line from the centre of `box` towards (x, y) leaves the box. */
function border(/** @type {Box} */ box, /** @type {number} */ x, /** @type {number} */ y) {
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const dx = x - cx;
  const dy = y - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  const scale = Math.min(dx === 0 ? Infinity : box.w / 2 / Math.abs(dx), dy === 0 ? Infinity : box.h / 2 / Math.abs(dy));
  return { x: cx + dx * scale, y: cy + dy * scale };
}

/** @param {number} n */
const round = (n) => Math.round(n * 10) / 10;

/** The legend line of a transition: what fires it and what it answers or posts. */
function legendText(/** @type {Transition} */ t) {
  const parts = [`${t.trigger.kind}: ${t.trigger.description}`];
  if (t.condition) parts.push(`when ${t.condition}`);
  if (t.response !== undefined) parts.push(`answers ${t.response}`);
  if (t.emits) parts.push(`posts ${t.emits}`);
  if (!t.to) parts.push('state unchanged');
  if (t.basis === 'inferred') parts.push('inferred: the reference implies it without stating it');
  return parts.join('; ');
}

/**
 * @param {StateMachine} machine
 * @returns {string} a <figure> holding the SVG
 */
export function renderStateDiagram(machine) {
  const id = `diagram-state-${kebab(machine.name)}`;
  const depth = depths(machine);
  /** @type {Map<number, string[]>} */
  const columns = new Map();
  for (const [node, d] of depth) columns.set(d, [...(columns.get(d) ?? []), node]);
  for (const nodes of columns.values()) nodes.sort((a, b) => (a === start ? -1 : b === start ? 1 : Object.keys(machine.states).indexOf(a) - Object.keys(machine.states).indexOf(b)));

  // Edges: one per (from, to) pair of every transition; pairs that repeat bend apart.
  /** @type {{ t: Transition, n: number, from: string, to: string }[]} */
  const edges = [];
  machine.transitions.forEach((t, i) => {
    for (const f of t.from) for (const to of t.to ?? [f ?? start]) edges.push({ t, n: i + 1, from: f ?? start, to: to ?? start });
  });
  /** @type {Map<string, number>} */
  const seen = new Map();
  const pairKey = (/** @type {string} */ a, /** @type {string} */ b) => [a, b].sort().join('\u0001');
  const counts = new Map();
  for (const e of edges) counts.set(pairKey(e.from, e.to), (counts.get(pairKey(e.from, e.to)) ?? 0) + 1);

  /** @type {Map<string, Box>} */
  const boxes = new Map();
  const top = margin + 34; // room for self-loops above the first row
  // Loops on the start dot spread sideways: leave room for them on the left.
  let x = margin + 18 * (counts.get(pairKey(start, start)) ?? 0);
  const columnCount = Math.max(...columns.keys()) + 1;
  let graphHeight = 0;
  for (let d = 0; d < columnCount; d++) {
    const nodes = columns.get(d) ?? [];
    const width = Math.max(0, ...nodes.map((n) => (n === start ? 18 : Math.max(96, textWidth(n, 14) + 28))));
    nodes.forEach((node, row) => {
      const w = node === start ? 18 : width;
      const h = node === start ? 18 : boxHeight;
      const y = top + row * (boxHeight + rowGap + 34) + (boxHeight - h) / 2;
      boxes.set(node, { id: node, label: node, x, y, w, h });
      graphHeight = Math.max(graphHeight, y + h);
    });
    x += width + columnGap;
  }
  const graphWidth = x - columnGap + margin;

  const paths = [];
  const badges = [];
  for (const e of edges) {
    const a = /** @type {Box} */ (boxes.get(e.from));
    const b = /** @type {Box} */ (boxes.get(e.to));
    const key = pairKey(e.from, e.to);
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    const dash = e.t.basis === 'inferred' ? ' stroke-dasharray="5 4"' : '';
    const colour = e.t.trigger.kind === 'request' ? accent : ink;
    let d;
    let label;
    if (e.from === e.to) {
      // Loops sit side by side along the top of the box.
      const loops = counts.get(key) ?? 1;
      const cx = a.x + a.w / 2 + (k - (loops - 1) / 2) * 36;
      const sx = cx - 12;
      const ex = cx + 12;
      const lift = 30;
      d = `M${round(sx)},${round(a.y)} C${round(sx - 8)},${round(a.y - lift)} ${round(ex + 8)},${round(a.y - lift)} ${round(ex)},${round(a.y)}`;
      label = { x: cx, y: a.y - lift * 0.75 };
    } else {
      const n = counts.get(key);
      const ac = { x: a.x + a.w / 2, y: a.y + a.h / 2 };
      const bc = { x: b.x + b.w / 2, y: b.y + b.h / 2 };
      const sameColumn = Math.abs(ac.x - bc.x) < 1;
      const skipping = !sameColumn && Math.abs(ac.y - bc.y) < 1 && Math.abs((depth.get(e.from) ?? 0) - (depth.get(e.to) ?? 0)) > 1;
      // Normal to the line a -> b, with one orientation for the pair whatever the direction of this edge.
      const [p, q] = e.from < e.to ? [ac, bc] : [bc, ac];
      const len = Math.hypot(q.x - p.x, q.y - p.y);
      const nx = -(q.y - p.y) / len;
      const ny = (q.x - p.x) / len;
      const base = sameColumn || skipping ? 60 : 0;
      const offset = base + (k - ((n ?? 1) - 1) / 2) * 34;
      const mid = { x: (ac.x + bc.x) / 2 + nx * offset * 2, y: (ac.y + bc.y) / 2 + ny * offset * 2 };
      const s = border(a, mid.x, mid.y);
      const t = border(b, mid.x, mid.y);
      d = `M${round(s.x)},${round(s.y)} Q${round(mid.x)},${round(mid.y)} ${round(t.x)},${round(t.y)}`;
      label = { x: 0.25 * s.x + 0.5 * mid.x + 0.25 * t.x, y: 0.25 * s.y + 0.5 * mid.y + 0.25 * t.y };
    }
    paths.push(
      `<path data-transition="${escapeHtml(e.t.id)}" d="${d}" fill="none" stroke="${colour}" stroke-width="1.5"${dash} marker-end="url(#${id}-arrow)"/>`,
    );
    badges.push(
      `<g data-transition-badge="${escapeHtml(e.t.id)}"><circle cx="${round(label.x)}" cy="${round(label.y)}" r="9" fill="#fff" stroke="${colour}"/>` +
        text(round(label.x), round(label.y + 4), String(e.n), { size: 11, anchor: 'middle', weight: 600, fill: colour }) +
        '</g>',
    );
  }

  const nodes = [...boxes.values()].map((box) =>
    box.id === start
      ? `<circle data-start="" cx="${box.x + 9}" cy="${box.y + 9}" r="8" fill="${ink}"><title>start: the ${escapeHtml(machine.subject)} does not exist yet</title></circle>`
      : `<g data-state="${escapeHtml(box.id)}"><title>${escapeHtml(machine.states[box.id] ?? '')}</title>` +
        `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="8" fill="#f6f8fa" stroke="${ink}"/>` +
        text(box.x + box.w / 2, box.y + box.h / 2 + 5, box.label, { size: 14, anchor: 'middle', weight: 600, mono: true }) +
        '</g>',
  );

  // The legend: number, transition id, then what it means, wrapped.
  let y = graphHeight + 40;
  const legend = [text(margin, y, 'Transitions', { size: 13, weight: 700 })];
  let legendWidth = 0;
  const indent = margin + Math.max(...machine.transitions.map((t, i) => textWidth(`${i + 1}. ${t.id}`, 12))) + 16;
  machine.transitions.forEach((t, i) => {
    y += legendLine + 4;
    const head = `${i + 1}. ${t.id}`;
    legend.push(`<g data-legend="${escapeHtml(t.id)}">` + text(margin, y, head, { size: 12, weight: 600, mono: true }));
    const lines = wrap(legendText(t).replaceAll('`', ''), legendWrap);
    lines.forEach((line, j) => {
      if (j > 0) y += legendLine;
      legend.push(text(indent, y, line, { size: 12, fill: muted }));
      legendWidth = Math.max(legendWidth, indent + textWidth(line, 12));
    });
    legend.push('</g>');
  });
  const width = Math.max(graphWidth, legendWidth + margin);
  const height = y + margin;
  const states = Object.keys(machine.states).join(', ');
  return figure({
    id,
    kind: 'state',
    name: kebab(machine.name),
    title: machine.title,
    description: `${machine.description} States: ${states}. Blue arrows are the merchant's requests; dashed arrows are inferred.`,
    width,
    height,
    body: paths.join('') + nodes.join('') + badges.join('') + legend.join(''),
  });
}
