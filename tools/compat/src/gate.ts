import { contracts as allContracts, type Contract } from '@paykit/contracts';
import { readChangesets, type Acknowledgement, type PendingChangesets } from './changesets.js';
import type { Difference } from './difference.js';
import { loadCurrent, loadReleased, type LoadedContract } from './load.js';
import { basePath, compareDocuments, majorVersion } from './openapi/index.js';
import { classify, type Judgement } from './rules/index.js';
import { compareSoap, soapBase } from './soap/compare-soap.js';

export interface CheckOptions {
  /** Repository whose `specs/` are checked. */
  root: string;
  /** Folder of the released snapshots. */
  baseDir: string;
  /** Folder of the pending changesets. */
  changesetDir: string;
  contracts?: readonly Contract[];
}

export type ContractStatus = 'passed' | 'failed' | 'no-released-version' | 'not-written';

export interface ContractReport {
  contract: Contract;
  status: ContractStatus;
  judgements: Judgement[];
  /** The breaking judgements a pending changeset acknowledged, with the acknowledgement. */
  acknowledged: { judgement: Judgement; acknowledgement: Acknowledgement }[];
  /** Why the contract failed, one reason a line. */
  problems: string[];
  /** One line per difference, then the summary line. */
  lines: string[];
}

/** Every difference between two loaded versions of a contract. */
export function differences(before: LoadedContract, after: LoadedContract): Difference[] {
  if (before.kind === 'openapi' && after.kind === 'openapi') return compareDocuments(before.document, after.document);
  if (before.kind === 'soap' && after.kind === 'soap') return compareSoap(before.model, after.model);
  throw new Error('a snapshot and its contract are of different kinds');
}

function major(loaded: LoadedContract): number | undefined {
  return loaded.kind === 'openapi' ? majorVersion(basePath(loaded.document)) : majorVersion(soapBase(loaded.model));
}

export const formatJudgement = ({ rule, difference }: Judgement): string =>
  rule.verdict === 'allowed'
    ? `ALLOWED ${rule.name} ${difference.location}`
    : `${rule.verdict === 'breaking' ? 'BREAKING' : 'CLIENT-MAJOR'} ${rule.name} ${difference.location}: ${difference.detail}`;

export const formatAcknowledged = ({ rule, difference }: Judgement, acknowledgement: Acknowledgement): string =>
  `ACKNOWLEDGED ${rule.name} ${difference.location}: ${acknowledgement.reason}`;

export const formatStale = (a: Acknowledgement): string =>
  `STALE ${a.rule} at \`${a.location}\` (${a.file}:${a.line}): this acknowledgement matches no breaking difference`;

const versionLabel = (n: number | undefined): string => (n === undefined ? 'unversioned' : `v${n}`);

/**
 * Judges two loaded versions of one contract against the release rules: breaking changes need a new major version
 * of the base path or an acknowledgement from a changeset naming the client package; client-major changes need a
 * major changeset; any difference needs a changeset. Acknowledgements it uses are added to `used`.
 */
export function judgeVersions(
  contract: Contract,
  released: LoadedContract,
  current: LoadedContract,
  pending: PendingChangesets,
  used: Set<Acknowledgement> = new Set(),
): ContractReport {
  const clientPackage = contract.clientPackage.name;
  const judgements = differences(released, current).map(classify);
  const offered = pending.acknowledgements.filter((a) => a.packages.includes(clientPackage));
  const acknowledged: ContractReport['acknowledged'] = [];
  const lines: string[] = [];
  for (const judgement of judgements) {
    const acknowledgement =
      judgement.rule.verdict === 'breaking'
        ? offered.find((a) => a.rule === judgement.rule.name && a.location === judgement.difference.location)
        : undefined;
    if (acknowledgement) {
      used.add(acknowledgement);
      acknowledged.push({ judgement, acknowledgement });
      lines.push(formatAcknowledged(judgement, acknowledgement));
    } else {
      lines.push(formatJudgement(judgement));
    }
  }
  const breaking = judgements.filter((j) => j.rule.verdict === 'breaking' && !acknowledged.some((a) => a.judgement === j));
  const clientMajor = judgements.filter((j) => j.rule.verdict === 'client-major');
  const majorBefore = major(released);
  const majorAfter = major(current);
  const newMajor = majorBefore !== undefined && majorAfter !== undefined && majorAfter > majorBefore;
  const bump = pending.bumps.get(clientPackage);
  const problems: string[] = [];
  if (breaking.length > 0 && !newMajor) {
    problems.push(`${breaking.length} breaking change(s) within ${versionLabel(majorBefore)}: release them as a new major version of the base path, or acknowledge each in a changeset`);
  }
  if (judgements.length > 0 && bump === undefined) {
    problems.push(`no pending changeset names ${clientPackage} (run pnpm changeset)`);
  }
  if (clientMajor.length > 0 && bump !== undefined && bump !== 'major') {
    problems.push(`${clientMajor.length} change(s) rename generated methods: the changeset for ${clientPackage} must be a major bump of the package (not a new API version), not ${bump}`);
  }
  if (newMajor && bump !== undefined && bump !== 'major') {
    problems.push(`the base path moved to ${versionLabel(majorAfter)}: the changeset for ${clientPackage} must be a major bump, not ${bump}`);
  }
  const allowed = judgements.filter((j) => j.rule.verdict === 'allowed').length;
  const extra = [acknowledged.length > 0 ? `, ${acknowledged.length} acknowledged` : '', clientMajor.length > 0 ? `, ${clientMajor.length} client-major` : ''].join('');
  const counts = `${judgements.length} difference(s) (${allowed} allowed, ${breaking.length} breaking${extra})`;
  const versions = `${versionLabel(majorBefore)} -> ${versionLabel(majorAfter)}`;
  const verdict = problems.length > 0 ? `FAILED: ${problems.join('; ')}` : 'OK';
  return {
    contract,
    status: problems.length > 0 ? 'failed' : 'passed',
    judgements,
    acknowledged,
    problems,
    lines: [...lines, `${contract.name}: ${counts}, ${versions}: ${verdict}`],
  };
}

/** Judges one contract of a repository against its released snapshot. */
export async function checkContract(contract: Contract, options: CheckOptions, pending: PendingChangesets, used?: Set<Acknowledgement>): Promise<ContractReport> {
  const released = await loadReleased(contract, options.baseDir);
  const current = await loadCurrent(contract, options.root);
  if (!current) {
    const status: ContractStatus = released ? 'failed' : 'not-written';
    const problems = released ? ['the contract was released but its spec is gone'] : [];
    const summary = released ? `${contract.name}: FAILED: released, but the spec is missing` : `${contract.name}: no spec yet: OK`;
    return { contract, status, judgements: [], acknowledged: [], problems, lines: [summary] };
  }
  if (!released) {
    return { contract, status: 'no-released-version', judgements: [], acknowledged: [], problems: [], lines: [`${contract.name}: no released version: OK`] };
  }
  return judgeVersions(contract, released, current, pending, used);
}

/**
 * Acknowledgements no checked contract used. One whose changeset names only packages of contracts that were not
 * checked (`--contract`) is left for the run that checks them.
 */
export function staleAcknowledgements(pending: PendingChangesets, checked: readonly Contract[], used: Set<Acknowledgement>): Acknowledgement[] {
  const checkedPackages = new Set(checked.map((c) => c.clientPackage.name));
  const otherPackages = new Set(allContracts.map((c) => c.clientPackage.name).filter((p) => !checkedPackages.has(p)));
  return pending.acknowledgements.filter(
    (a) => !used.has(a) && !(a.packages.length > 0 && a.packages.every((p) => otherPackages.has(p))),
  );
}

export interface CheckResult {
  ok: boolean;
  reports: ContractReport[];
  stale: Acknowledgement[];
  /** Every line to print: each report's, then one per stale acknowledgement. */
  lines: string[];
}

export async function check(options: CheckOptions): Promise<CheckResult> {
  const pending = await readChangesets(options.changesetDir);
  const selected = options.contracts ?? allContracts;
  const used = new Set<Acknowledgement>();
  const reports: ContractReport[] = [];
  for (const contract of selected) reports.push(await checkContract(contract, options, pending, used));
  const stale = staleAcknowledgements(pending, selected, used);
  const lines = [...reports.flatMap((r) => r.lines), ...stale.map(formatStale)];
  return { ok: reports.every((r) => r.status !== 'failed') && stale.length === 0, reports, stale, lines };
}
