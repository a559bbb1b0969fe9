// A state machine of the contract (as `readStateMachines` reads it) drawn as an SVG state diagram: every transition an
// arrow with a number, and a legend under the drawing that says what each number is (trigger, condition, answer,
// webhook). Numbers instead of labels on the arrows keep the drawing legible however long the reference's wording is.
// The layout (states in ranks from the start, their order, the arrows' routes and where their numbers sit) is dagre's;
// the drawing is ours (./svg.mjs). A transition that leaves the state unchanged is a loop drawn on top of its box.
import dagre from '@dagrejs/dagre';
import { escapeHtml } from '../html.mjs';
import { accent, figure, ink, kebab, muted, text, textWidth, wrap } from './svg.mjs';

/**
 * @typedef {import('@paykit/contracts').StateMachine} StateMachine
 * @typedef {import('@paykit/contracts').Transition} Transition
 * @typedef {{ id: string, label: string, x: number, y: number, w: number, h: number }} Box
 * @typedef {{ x: number, y: number }} Point
 */

const start = '\u0000start';
const boxHeight = 38;
const badge = 18;
const margin = 24;
const loopLift = 30;
const legendLine = 18;
const legendWrap = 96;

/** @param {number} n */
const round = (n) => Math.round(n * 10) / 10;

/**
 * A smooth path through dagre's route: straight to the middle of each leg, bending at the route's points.
 * @param {Point[]} points
 */
function curve(points) {
  const [first, ...rest] = points.map((p) => ({ x: round(p.x), y: round(p.y) }));
  if (!first) return '';
  let d = `M${first.x},${first.y}`;
  rest.forEach((p, i) => {
    const next = rest[i + 1];
    if (!next) d += i === 0 ? ` L${p.x},${p.y}` : '';
    else d += ` Q${p.x},${p.y} ${next === rest.at(-1) ? `${next.x},${next.y}` : `${round((p.x + next.x) / 2)},${round((p.y + next.y) / 2)}`}`;
  });
  return d;
}

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
  // Edges: one per (from, to) pair of every transition.
  /** @type {{ t: Transition, n: number, from: string, to: string }[]} */
  const edges = [];
  machine.transitions.forEach((t, i) => {
    for (const f of t.from) for (const to of t.to ?? [f ?? start]) edges.push({ t, n: i + 1, from: f ?? start, to: to ?? start });
  });
  /** @type {Map<string, number>} loops per state */
  const loops = new Map();
  for (const e of edges) if (e.from === e.to) loops.set(e.from, (loops.get(e.from) ?? 0) + 1);

  const graph = new dagre.graphlib.Graph({ multigraph: true });
  // Loops on the start dot spread sideways: leave room for them on the left; above the first row, room for loops.
  graph.setGraph({ rankdir: 'LR', nodesep: loopLift + badge + 16, ranksep: 70, marginx: margin + 18 * (loops.get(start) ?? 0), marginy: margin + loopLift + 4 });
  graph.setNode(start, { width: 18, height: 18 });
  for (const state of Object.keys(machine.states)) graph.setNode(state, { width: Math.max(96, textWidth(state, 14) + 28), height: boxHeight });
  edges.forEach((e, i) => {
    // The number's circle is the edge label, so dagre keeps it clear of boxes and other arrows.
    if (e.from !== e.to) graph.setEdge(e.from, e.to, { width: badge + 4, height: badge + 4, labelpos: 'c' }, String(i));
  });
  dagre.layout(graph);

  /** @type {Map<string, Box>} */
  const boxes = new Map();
  for (const node of graph.nodes()) {
    const { x, y, width: w, height: h } = graph.node(node);
    boxes.set(node, { id: node, label: node, x: round((x ?? 0) - w / 2), y: round((y ?? 0) - h / 2), w, h });
  }
  const graphWidth = graph.graph().width ?? 0;
  // The bottom margin dagre adds is the top one, which has room for loops: the legend needs less.
  const graphHeight = (graph.graph().height ?? 0) - loopLift - 4 - margin;

  /** @type {string[]} */
  const paths = [];
  /** @type {string[]} */
  const badges = [];
  /** @type {Map<string, number>} */
  const drawnLoops = new Map();
  edges.forEach((e, i) => {
    const dash = e.t.basis === 'inferred' ? ' stroke-dasharray="5 4"' : '';
    const colour = e.t.trigger.kind === 'request' ? accent : ink;
    let d;
    let label;
    if (e.from === e.to) {
      // Loops sit side by side along the top of the box.
      const a = /** @type {Box} */ (boxes.get(e.from));
      const k = drawnLoops.get(e.from) ?? 0;
      drawnLoops.set(e.from, k + 1);
      const cx = a.x + a.w / 2 + (k - ((loops.get(e.from) ?? 1) - 1) / 2) * 36;
      const sx = cx - 12;
      const ex = cx + 12;
      d = `M${round(sx)},${round(a.y)} C${round(sx - 8)},${round(a.y - loopLift)} ${round(ex + 8)},${round(a.y - loopLift)} ${round(ex)},${round(a.y)}`;
      label = { x: cx, y: a.y - loopLift * 0.75 };
    } else {
      const edge = graph.edge(e.from, e.to, String(i));
      d = curve(edge.points ?? []);
      label = { x: edge.x ?? 0, y: edge.y ?? 0 };
    }
    paths.push(
      `<path data-transition="${escapeHtml(e.t.id)}" d="${d}" fill="none" stroke="${colour}" stroke-width="1.5"${dash} marker-end="url(#${id}-arrow)"/>`,
    );
    badges.push(
      `<g data-transition-badge="${escapeHtml(e.t.id)}"><circle cx="${round(label.x)}" cy="${round(label.y)}" r="9" fill="#fff" stroke="${colour}"/>` +
        text(round(label.x), round(label.y + 4), String(e.n), { size: 11, anchor: 'middle', weight: 600, fill: colour }) +
        '</g>',
    );
  });

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
