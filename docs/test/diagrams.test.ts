// The guides' diagrams are drawn from the contracts' own tables (x-paykit-state-machines, which the payments sandbox
// enforces, and x-paykit-flows): every state, transition and step of the source must be in the drawing, each diagram
// the contracts can draw is placed in a guide, and a marker naming no diagram fails the build.
import { bundleOpenApi, openApiContracts, readFlows, readStateMachines, type Flow, type StateMachine } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { diagramMarker, loadDiagrams } from '../scripts/diagrams/index.mjs';
import { renderSequenceDiagram } from '../scripts/diagrams/sequence-diagram.mjs';
import { renderStateDiagram } from '../scripts/diagrams/state-diagram.mjs';
import { kebab } from '../scripts/diagrams/svg.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { createMarkdownRenderer } from '../scripts/markdown.mjs';

const documents = await Promise.all(openApiContracts.map(async (c) => ({ name: c.name, document: await bundleOpenApi(c.root) })));
const machines: StateMachine[] = documents.flatMap(({ name, document }) => Object.values(readStateMachines(document, name)));
const flows: Flow[] = documents.flatMap(({ name, document }) => Object.values(readFlows(document, name)));
const catalogue = await loadDiagrams();
const attribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

describe('state diagrams', () => {
  it('the contracts have the state tables of the reference', () => {
    expect(machines.map((m) => m.name)).toEqual(expect.arrayContaining(['aliasStatus', 'singleUseToken', 'threeDSecure', 'downloadQueue']));
  });

  it.each(machines.map((machine) => ({ name: machine.name, machine })))('$name: every state and transition is drawn and explained', ({ machine }) => {
    const svg = renderStateDiagram(machine);
    expect(svg).toMatch(/^<figure class="diagram"[^>]*><svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" role="img"/);
    expect(svg).not.toMatch(/<script/i);
    for (const state of Object.keys(machine.states)) expect(svg, `state ${state}`).toContain(`data-state="${attribute(state)}"`);
    for (const transition of machine.transitions) {
      const arrows = svg.split(`<path data-transition="${attribute(transition.id)}"`).length - 1;
      const pairs = transition.from.length * (transition.to?.length ?? 1);
      expect(arrows, `arrows of ${transition.id}`).toBe(pairs);
      expect(svg, `legend of ${transition.id}`).toContain(`data-legend="${attribute(transition.id)}"`);
      if (transition.response !== undefined) expect(svg).toContain(`answers ${transition.response}`);
      if (transition.emits) expect(svg).toContain(`posts ${transition.emits}`);
    }
  });

  it.each(machines.map((machine) => ({ name: machine.name, machine })))('$name: no two boxes overlap, and no number sits on a box or on another number', ({ machine }) => {
    const svg = renderStateDiagram(machine);
    const boxes = [...svg.matchAll(/<g data-state="([^"]+)"><title>[^<]*<\/title><rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"/g)].map((m) => ({
      name: m[1]!, x: Number(m[2]), y: Number(m[3]), w: Number(m[4]), h: Number(m[5]),
    }));
    const badges = [...svg.matchAll(/<g data-transition-badge="([^"]+)"><circle cx="([\d.-]+)" cy="([\d.-]+)" r="([\d.]+)"/g)].map((m) => ({
      id: m[1]!, x: Number(m[2]), y: Number(m[3]), r: Number(m[4]),
    }));
    expect(boxes.map((b) => b.name).sort()).toEqual(Object.keys(machine.states).sort());
    const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    const square = (c: (typeof badges)[number]) => ({ x: c.x - c.r, y: c.y - c.r, w: 2 * c.r, h: 2 * c.r });
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(overlaps(a, b), `${a.name} and ${b.name}`).toBe(false)));
    for (const badge of badges) for (const box of boxes) expect(overlaps(square(badge), box), `number of ${badge.id} on ${box.name}`).toBe(false);
    badges.forEach((a, i) => badges.slice(i + 1).forEach((b) => expect(Math.hypot(a.x - b.x, a.y - b.y), `numbers of ${a.id} and ${b.id}`).toBeGreaterThanOrEqual(a.r + b.r)));
  });

  it('a state added to the source appears in the drawing (the test reads the source, not a copy)', () => {
    const machine = machines.find((m) => m.name === 'aliasStatus')!;
    const extended: StateMachine = {
      ...machine,
      states: { ...machine.states, SUSPENDED: 'A state the reference might add.' },
      transitions: [...machine.transitions, { id: 'suspend', from: ['REGISTERED'], to: ['SUSPENDED'], trigger: { kind: 'service', description: 'suspended' }, effects: [], basis: 'reference' }],
    };
    const svg = renderStateDiagram(extended);
    expect(svg).toContain('data-state="SUSPENDED"');
    expect(svg).toContain('data-transition="suspend"');
  });
});

describe('flow diagrams', () => {
  it.each(flows.map((flow) => ({ name: flow.name, flow })))('$name: every actor and step is drawn, in order', ({ flow }) => {
    const svg = renderSequenceDiagram(flow);
    for (const actor of Object.keys(flow.actors)) expect(svg).toContain(`data-actor="${actor}"`);
    const drawn = [...svg.matchAll(/data-step="(\d+)" data-(operation|event|action)="([^"]*)"/g)].map((m) => [Number(m[1]), m[2], m[3]]);
    expect(drawn).toEqual(
      flow.steps.map((step, i) => [i + 1, step.kind, step.kind === 'operation' ? step.operation!.operationId : step.kind === 'event' ? step.event : 'action']),
    );
    for (const step of flow.steps.filter((s) => s.operation)) expect(svg).toContain(`${step.operation!.method} ${step.operation!.path}`);
  });
});

describe('diagram markers in the guides', () => {
  const guides = readGuides();
  const markers = guides.flatMap((g) => g.markdown.split('\n').flatMap((line) => {
    const m = diagramMarker.exec(line.trim());
    return m ? [{ guide: g.source, key: `${m[1]} ${m[2]}` }] : [];
  }));

  it('every diagram the contracts draw is placed in a guide, and every marker names one', () => {
    expect(markers.map((m) => m.key).sort()).toEqual([...catalogue.keys()].sort());
    expect([...catalogue.keys()].sort()).toEqual(
      [...machines.map((m) => `state ${kebab(m.name)}`), ...flows.map((f) => `flow ${kebab(f.name)}`)].sort(),
    );
  });

  const markdown = createMarkdownRenderer(new Map(guides.map((g) => [g.source, g.page])), catalogue);

  it('a marker becomes the inline SVG, and raw HTML elsewhere stays escaped', () => {
    const html = markdown.render('Before.\n\n<!-- diagram: state alias-status -->\n\n<b>after</b>\n', { source: '04-x.md' });
    expect(html).toContain('<figure class="diagram" data-diagram="state alias-status">');
    expect(html).not.toContain('&lt;!-- diagram');
    expect(html).toContain('&lt;b&gt;after&lt;/b&gt;');
  });

  it.each([
    { marker: '<!-- diagram: state alias-statuses -->', error: '04-x.md: unknown diagram "state alias-statuses"' },
    { marker: '<!-- diagram: picture alias-status -->', error: '04-x.md: unknown diagram "picture alias-status"' },
    { marker: '<!-- diagram: alias-status -->', error: '04-x.md: malformed diagram marker' },
  ])('$marker fails the build', ({ marker, error }) => {
    expect(() => markdown.render(`Text.\n\n${marker}\n`, { source: '04-x.md' })).toThrow(error);
  });

  it('no diagram library reaches the page: the built guides hold the SVG and no script', () => {
    for (const guide of guides.filter((g) => markers.some((m) => m.guide === g.source))) {
      const html = markdown.render(guide.markdown, { source: guide.source });
      expect(html).toContain('<svg');
      expect(html).not.toMatch(/<script/i);
    }
  });
});
