import { bundleOpenApi, fromRoot, isNode, paymentsContract, repoRoot, type OpenApiDocument } from '@paykit/contracts';
import type { Acknowledgement, PendingChangesets } from './changesets.js';
import { judgeVersions, staleAcknowledgements, type ContractReport } from './gate.js';
import { sameValue } from './openapi/same-value.js';

/**
 * The reference's change log, replayed on the payments contract: each entry says how to take the contract back to
 * the month before it (undo edits on the bundled document, by JSON pointer), what of the entry the contract does not
 * model, and what the reference's Versioning section says of it. Working back from today's contract gives one state
 * per entry; the gate then judges each step forward.
 */

/** An edit that undoes part of an entry: remove the member at `remove`, or the array element `value` at `removeItem`. */
export type UndoEdit = { remove: string } | { removeItem: string; value: unknown };

/** What the reference says of a change made within v1. */
export type ReferenceVerdict = 'compatible' | 'compatible for existing customers';

export interface HistoryEntry {
  month: string;
  /** The entry, in our words. */
  change: string;
  undo: UndoEdit[];
  /** The parts of the entry the contract does not model, each with the reason. */
  notInContract: string[];
  reference: ReferenceVerdict;
  /** Breaking differences the entry made within v1 and the reference accepts ("compatible for existing customers"). */
  acknowledge?: { rule: string; location: string; reason: string }[];
}

/** The gate's verdict of one step: `acknowledged` passes only with the entry's acknowledgements. */
export type StepVerdict = 'compatible' | 'acknowledged' | 'breaking' | 'not in contract';

export interface HistoryStep {
  entry: HistoryEntry;
  verdict: StepVerdict;
  /** Whether the verdict is the one the reference's Versioning section gives. */
  asReference: boolean;
  /** Names of the rules that judged the step's differences, in order of first use. */
  rules: string[];
  /** The gate's run with the entry's acknowledgements (if any). */
  report: ContractReport;
  /** For an entry with acknowledgements: the gate's run without them. */
  withoutAcknowledgement?: ContractReport;
}

/** A JSON pointer to `segments` (each escaped: `/aliases` becomes `~1aliases`). */
export const pointer = (...segments: string[]): string => segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

const schema = (name: string, ...rest: string[]): string => pointer('components', 'schemas', name, ...rest);
const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

const CSV_REPORT = 'the transaction report is one text/csv string whose columns the reference does not publish';

/** Newest first, as the reference lists them. */
export const referenceChangeLog: readonly HistoryEntry[] = [
  {
    month: '2026-02',
    change: '`registrationPriority` on both alias registration requests',
    // Both endpoints take AliasRegistration (CustomerAliasRegistration refers to it).
    undo: [{ remove: schema('AliasRegistration', 'properties', 'registrationPriority') }],
    notInContract: [],
    reference: 'compatible',
  },
  {
    month: '2026-01',
    change: '`createAllButtons` in the browser library',
    undo: [],
    notInContract: ['`createAllButtons`: a browser library function; the contract describes the HTTP API only'],
    reference: 'compatible',
  },
  {
    month: '2025-11',
    change: 'mandate payer accounts in tokens; tokens for once-off mandate payments and agreement creation; hosted frame for alias and bank-account customers',
    undo: [],
    notInContract: [
      'mandate tokens: the reference publishes no token field for mandates, so the token request has none to remove',
      'hosted frame support: part of the browser library, not of the HTTP API',
    ],
    reference: 'compatible',
  },
  {
    month: '2025-10',
    change: '`walletAPayToken` in the token request',
    undo: [{ remove: schema('WalletATokenRequest', 'allOf', '1', 'properties', 'walletAPayToken') }],
    notInContract: [],
    reference: 'compatible',
  },
  {
    month: '2025-09',
    change:
      'alias API and webhooks; alias details on transactions; wallet token requests with `walletBPayToken` and `displayAccountNumber`; alias column and renamed headings in the CSV report; alias search and refunds; mandate biller accounts',
    undo: [
      { remove: pointer('paths', '/aliases') },
      { remove: pointer('paths', '/customers/{customerId}/aliases') },
      { remove: pointer('paths', '/aliases/{id}') },
      { remove: pointer('webhooks', 'alias.registered') },
      { remove: pointer('webhooks', 'alias.payment.received') },
      { remove: schema('Transaction', 'allOf', '1', 'properties', 'aliasBillerAccount') },
      { remove: schema('Transaction', 'allOf', '1', 'properties', 'aliasAccount') },
      // `displayAccountNumber` is required for both wallet types: the wallet token requests came with it.
      { removeItem: schema('SingleUseTokenRequest', 'oneOf'), value: ref('WalletATokenRequest') },
      { removeItem: schema('SingleUseTokenRequest', 'oneOf'), value: ref('WalletBTokenRequest') },
      { remove: schema('SingleUseTokenRequest', 'discriminator', 'mapping', 'WALLET_A_PAY') },
      { remove: schema('SingleUseTokenRequest', 'discriminator', 'mapping', 'WALLET_B_PAY') },
    ],
    notInContract: [
      `alias column and renamed CSV headings: ${CSV_REPORT}`,
      'alias search and refunds: they use the existing transaction resources, with no alias parameter or field the reference publishes',
      'mandate biller accounts on the transaction response: their shape is not published',
      "wallet token responses: kept (our assumption): wallet tokens already came from the browser wallet button (2021-09), and the log does not say when the token endpoint began to return that variant",
    ],
    reference: 'compatible',
  },
  {
    month: '2025-05',
    change: '`entryMode` required on transactions; `usage` may then be required for `STORED_CREDENTIAL`',
    undo: [{ removeItem: schema('TransactionRequest', 'required'), value: 'entryMode' }],
    notInContract: ['`usage` required with `STORED_CREDENTIAL`: the contract does not model the shape of `usage` or the condition'],
    reference: 'compatible for existing customers',
    acknowledge: [
      {
        rule: 'new-required-request-field',
        location: 'POST /transactions request body application/json body<TransactionRequest>.entryMode',
        reason: 'the reference made entryMode required within v1 (change log 2025-05), "compatible for existing customers"',
      },
    ],
  },
  {
    month: '2024-07',
    change: '`agreementCreationType` in the agreements API and model',
    undo: [],
    notInContract: ['`agreementCreationType`: the agreement creation request is an open object; the reference names the field without publishing it'],
    reference: 'compatible',
  },
  {
    month: '2024-05',
    change: 'mandate agreement object in take-payment requests',
    undo: [],
    notInContract: ['mandate agreement object: the transaction request is open and the reference names the object without its shape'],
    reference: 'compatible',
  },
  {
    month: '2024-01',
    change: 'agreements API; mandate transactions and webhooks; `supplierBusinessCode` on the transaction response',
    undo: [
      { remove: pointer('paths', '/mandate-agreements') },
      { remove: pointer('paths', '/customers/{customerId}/mandate-agreements') },
      { remove: pointer('paths', '/mandate-agreements/{agreementToken}') },
      { remove: schema('Transaction', 'allOf', '1', 'properties', 'supplierBusinessCode') },
    ],
    notInContract: ['mandate transactions and webhooks: the reference publishes neither their fields nor their events'],
    reference: 'compatible',
  },
];

export class UndoError extends Error {
  override name = 'UndoError';
}

function parent(document: unknown, path: string): { container: Record<string, unknown> | unknown[]; key: string } {
  if (!path.startsWith('/')) throw new UndoError(`not a JSON pointer: ${path}`);
  const segments = path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const key = segments.pop()!;
  let at: unknown = document;
  for (const segment of segments) {
    at = isNode(at) || Array.isArray(at) ? (at as Record<string, unknown>)[segment] : undefined;
    if (at === undefined) throw new UndoError(`${path}: nothing at ${segment}; the contract no longer has what this entry undoes`);
  }
  if (!isNode(at) && !Array.isArray(at)) throw new UndoError(`${path}: the parent is not an object or an array`);
  return { container: at, key };
}

/** A copy of `document` with the edits applied; an edit that finds nothing is an error, so the table cannot rot silently. */
export function applyUndo(document: OpenApiDocument, edits: readonly UndoEdit[]): OpenApiDocument {
  const copy = structuredClone(document);
  for (const edit of edits) {
    if ('remove' in edit) {
      const { container, key } = parent(copy, edit.remove);
      if (Array.isArray(container)) {
        const index = Number(key);
        if (!Number.isInteger(index) || index >= container.length) throw new UndoError(`${edit.remove}: no such element`);
        container.splice(index, 1);
      } else {
        if (!(key in container)) throw new UndoError(`${edit.remove}: no such member; the contract no longer has what this entry undoes`);
        delete container[key];
      }
    } else {
      const { container, key } = parent(copy, edit.removeItem);
      const list = (container as Record<string, unknown>)[key];
      const index = Array.isArray(list) ? list.findIndex((v) => sameValue(v, edit.value)) : -1;
      if (index < 0) throw new UndoError(`${edit.removeItem}: no element ${JSON.stringify(edit.value)}`);
      (list as unknown[]).splice(index, 1);
    }
  }
  return copy;
}

const CLIENT_PACKAGE = paymentsContract.clientPackage.name;

function pendingFor(entry: HistoryEntry, withAcknowledgements: boolean): PendingChangesets {
  const acknowledgements: Acknowledgement[] = withAcknowledgements
    ? (entry.acknowledge ?? []).map((a) => ({ ...a, file: `reference change log ${entry.month}`, line: 1, packages: [CLIENT_PACKAGE] }))
    : [];
  return { bumps: new Map([[CLIENT_PACKAGE, 'minor']]), acknowledgements };
}

const expectedVerdict = (entry: HistoryEntry): StepVerdict[] =>
  entry.reference === 'compatible for existing customers' ? ['acknowledged'] : entry.undo.length === 0 ? ['not in contract'] : ['compatible'];

/** Runs the gate on one step, from the contract before `entry` to the contract after it. */
export function judgeStep(entry: HistoryEntry, before: OpenApiDocument, after: OpenApiDocument): HistoryStep {
  const run = (withAcknowledgements: boolean): ContractReport => {
    const pending = pendingFor(entry, withAcknowledgements);
    const used = new Set<Acknowledgement>();
    const report = judgeVersions(paymentsContract, { kind: 'openapi', document: before }, { kind: 'openapi', document: after }, pending, used);
    const stale = staleAcknowledgements(pending, [paymentsContract], used);
    if (stale.length === 0) return report;
    const lines = stale.map((a) => `STALE ${a.rule} at \`${a.location}\``);
    return { ...report, status: 'failed', problems: [...report.problems, ...lines], lines: [...report.lines, ...lines] };
  };
  const report = run(true);
  const withoutAcknowledgement = entry.acknowledge?.length ? run(false) : undefined;
  const verdict: StepVerdict =
    report.status === 'failed'
      ? 'breaking'
      : report.judgements.length === 0
        ? 'not in contract'
        : report.acknowledged.length > 0 && withoutAcknowledgement?.status === 'failed'
          ? 'acknowledged'
          : 'compatible';
  const rules = [...new Set(report.judgements.map((j) => j.rule.name))];
  return {
    entry,
    verdict,
    asReference: expectedVerdict(entry).includes(verdict),
    rules,
    report,
    ...(withoutAcknowledgement ? { withoutAcknowledgement } : {}),
  };
}

/**
 * Every step of the reference's recent history, oldest first: the gate run from the contract as it stood before
 * each entry to the contract after it, starting from `current` (by default today's bundled payments contract).
 */
export async function referenceHistory(
  options: { current?: OpenApiDocument; entries?: readonly HistoryEntry[] } = {},
): Promise<HistoryStep[]> {
  const current = options.current ?? ((await bundleOpenApi(fromRoot(paymentsContract.root), { cwd: repoRoot })) as OpenApiDocument);
  const entries = options.entries ?? referenceChangeLog;
  const steps: HistoryStep[] = [];
  let after = current;
  for (const entry of entries) {
    const before = applyUndo(after, entry.undo);
    steps.push(judgeStep(entry, before, after));
    after = before;
  }
  return steps.reverse();
}

const VERDICT_TEXT: Record<StepVerdict, string> = {
  compatible: 'compatible',
  acknowledged: 'compatible with an acknowledgement (fails without)',
  breaking: 'BREAKING',
  'not in contract': 'not in contract',
};

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The history as a Markdown table: month, entry (with what is not in the contract), verdict, rules hit. */
export function formatHistoryTable(steps: readonly HistoryStep[]): string {
  const rows = steps.map(({ entry, verdict, asReference, rules }) => {
    const outside = entry.notInContract.length > 0 ? `<br>Not in contract: ${entry.notInContract.join('; ')}` : '';
    const mismatch = asReference ? '' : ` (the reference says: ${entry.reference})`;
    const hit = rules.length > 0 ? rules.map((r) => `\`${r}\``).join(', ') : '-';
    return `| ${entry.month} | ${cell(entry.change + outside)} | ${VERDICT_TEXT[verdict]}${cell(mismatch)} | ${hit} |`;
  });
  return ['| Month | Entry | Verdict | Rules hit |', '|---|---|---|---|', ...rows].join('\n');
}
