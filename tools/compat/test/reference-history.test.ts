import { bundleOpenApi, fromRoot, paymentsContract, repoRoot } from '@paykit/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import {
  applyUndo,
  formatHistoryTable,
  judgeStep,
  pointer,
  referenceChangeLog,
  referenceHistory,
  UndoError,
  type HistoryStep,
  type StepVerdict,
} from '../src/history.js';
import type { OpenApiDocument } from '../src/openapi/index.js';

let current: OpenApiDocument;
let steps: HistoryStep[];

beforeAll(async () => {
  current = (await bundleOpenApi(fromRoot(paymentsContract.root), { cwd: repoRoot })) as OpenApiDocument;
  steps = await referenceHistory({ current });
  // Bundles the payments contract and replays the reference's change log on it, in process (seconds on a loaded machine).
}, 30_000);

/**
 * What the reference's Versioning section says of each entry (all were made within v1; 2025-05 "compatible for
 * existing customers"), as the gate must find it, and the rules that must judge its differences.
 */
const expected: { month: string; verdict: StepVerdict; rules: string[] }[] = [
  { month: '2024-01', verdict: 'compatible', rules: ['new-resource', 'new-response-property'] },
  { month: '2024-05', verdict: 'not in contract', rules: [] },
  { month: '2024-07', verdict: 'not in contract', rules: [] },
  { month: '2025-05', verdict: 'acknowledged', rules: ['new-required-request-field'] },
  { month: '2025-09', verdict: 'compatible', rules: ['new-resource', 'new-response-property', 'widened-request-type'] },
  { month: '2025-10', verdict: 'compatible', rules: ['new-optional-request-parameter'] },
  { month: '2025-11', verdict: 'not in contract', rules: [] },
  { month: '2026-01', verdict: 'not in contract', rules: [] },
  { month: '2026-02', verdict: 'compatible', rules: ['new-optional-request-parameter'] },
];

describe("the reference's change log, replayed through the gate", () => {
  it('has one step per entry, oldest first', () => {
    expect(steps.map((s) => s.entry.month)).toEqual(expected.map((e) => e.month));
  });

  it.each(expected)('$month is judged $verdict, as the reference says', ({ month, verdict, rules }) => {
    const step = steps.find((s) => s.entry.month === month)!;
    expect(step.verdict).toBe(verdict);
    expect(step.asReference).toBe(true);
    expect([...step.rules].sort()).toEqual(rules);
    expect(step.report.status).toBe('passed');
    expect(step.report.lines.filter((l) => /^(BREAKING|STALE|CLIENT-MAJOR) /.test(l))).toEqual([]);
  });

  it('2025-05 (entryMode made required within v1) fails without its acknowledgement and passes with it', () => {
    const step = steps.find((s) => s.entry.month === '2025-05')!;
    const location = 'POST /transactions request body application/json body<TransactionRequest>.entryMode';
    expect(step.withoutAcknowledgement?.status).toBe('failed');
    expect(step.withoutAcknowledgement?.lines).toContainEqual(`BREAKING new-required-request-field ${location}: property entryMode is now required`);
    expect(step.report.lines).toContainEqual(expect.stringMatching(new RegExp(`^ACKNOWLEDGED new-required-request-field ${location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*compatible for existing customers`)));
  });

  it('an acknowledgement of the wrong location leaves the step breaking and is reported stale', () => {
    const entry = referenceChangeLog.find((e) => e.month === '2025-05')!;
    const wrong = { ...entry, acknowledge: entry.acknowledge!.map((a) => ({ ...a, location: `${a.location}Typo` })) };
    const after = current;
    const before = applyUndo(after, [...referenceChangeLog.slice(0, referenceChangeLog.indexOf(entry) + 1).flatMap((e) => e.undo)]);
    const between = applyUndo(after, [...referenceChangeLog.slice(0, referenceChangeLog.indexOf(entry)).flatMap((e) => e.undo)]);
    const step = judgeStep(wrong, before, between);
    expect(step.verdict).toBe('breaking');
    expect(step.asReference).toBe(false);
    expect(step.report.lines).toContainEqual(expect.stringMatching(/^STALE new-required-request-field at `.*entryModeTypo`/));
  });

  it('every entry either undoes something or says what it does not model and why', () => {
    for (const entry of referenceChangeLog) {
      expect(entry.undo.length + entry.notInContract.length, entry.month).toBeGreaterThan(0);
      for (const note of entry.notInContract) expect(note, entry.month).toMatch(/^.+: .+$/);
    }
  });

  it('each state differs from the next: an undo that stopped changing the contract would be noticed', () => {
    for (const step of steps) {
      if (step.entry.undo.length > 0) expect(step.report.judgements.length, step.entry.month).toBeGreaterThan(0);
      else expect(step.report.judgements, step.entry.month).toEqual([]);
    }
  });
});

describe('undo edits', () => {
  const document = (): OpenApiDocument => ({ paths: { '/a/{id}': { get: {} }, '/b': {} }, list: ['x', { $ref: 'y' }] });

  it.each([
    { case: 'removes a member by escaped pointer', edit: { remove: pointer('paths', '/a/{id}') }, result: { paths: { '/b': {} }, list: ['x', { $ref: 'y' }] } },
    { case: 'removes an array element by value', edit: { removeItem: '/list', value: { $ref: 'y' } }, result: { paths: { '/a/{id}': { get: {} }, '/b': {} }, list: ['x'] } },
  ])('$case, leaving the input untouched', ({ edit, result }) => {
    const input = document();
    expect(applyUndo(input, [edit])).toEqual(result);
    expect(input).toEqual(document());
  });

  it.each([
    { case: 'a member that is not there', edit: { remove: pointer('paths', '/c') }, message: /~1c: no such member/ },
    { case: 'a parent that is not there', edit: { remove: '/components/schemas/X' }, message: /nothing at components/ },
    { case: 'an array element that is not there', edit: { removeItem: '/list', value: 'z' }, message: /no element "z"/ },
  ])('refuses $case', ({ edit, message }) => {
    expect(() => applyUndo(document(), [edit])).toThrow(UndoError);
    expect(() => applyUndo(document(), [edit])).toThrow(message);
  });
});

describe('the history table', () => {
  it('has a row per entry with its month, verdict and rules', () => {
    const table = formatHistoryTable(steps).split('\n');
    expect(table.slice(0, 2)).toEqual(['| Month | Entry | Verdict | Rules hit |', '|---|---|---|---|']);
    expect(table).toHaveLength(steps.length + 2);
    expect(table.find((r) => r.startsWith('| 2025-05 |'))).toMatch(/\| compatible with an acknowledgement \(fails without\) \| `new-required-request-field` \|$/);
    expect(table.find((r) => r.startsWith('| 2026-01 |'))).toMatch(/Not in contract: `createAllButtons`: .*\| not in contract \| - \|$/);
  });

  it('says so when a verdict differs from the reference', () => {
    const [step] = steps;
    expect(formatHistoryTable([{ ...step!, verdict: 'breaking', asReference: false }])).toContain('BREAKING (the reference says: compatible)');
  });

  it('paykit-compat history prints it and exits 0', async () => {
    const lines: string[] = [];
    expect(await main(['history'], (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toBe(formatHistoryTable(steps));
  }, 30_000);
});
