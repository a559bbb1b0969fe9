import { contracts as allContracts, type Contract } from '@paykit/contracts';
import { pendingChangesets } from './changesets.js';
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
    : `BREAKING ${rule.name} ${difference.location}: ${difference.detail}`;

const versionLabel = (n: number | undefined): string => (n === undefined ? 'unversioned' : `v${n}`);

/** Judges one contract: its differences, and whether the release rules (major version, changeset) are met. */
export async function checkContract(contract: Contract, options: CheckOptions, bumps: Map<string, string>): Promise<ContractReport> {
  const released = await loadReleased(contract, options.baseDir);
  const current = await loadCurrent(contract, options.root);
  if (!current) {
    const status: ContractStatus = released ? 'failed' : 'not-written';
    const problems = released ? ['the contract was released but its spec is gone'] : [];
    const summary = released ? `${contract.name}: FAILED: released, but the spec is missing` : `${contract.name}: no spec yet: OK`;
    return { contract, status, judgements: [], problems, lines: [summary] };
  }
  if (!released) {
    return { contract, status: 'no-released-version', judgements: [], problems: [], lines: [`${contract.name}: no released version: OK`] };
  }
  const judgements = differences(released, current).map(classify);
  const breaking = judgements.filter((j) => j.rule.verdict === 'breaking');
  const majorBefore = major(released);
  const majorAfter = major(current);
  const newMajor = majorBefore !== undefined && majorAfter !== undefined && majorAfter > majorBefore;
  const bump = bumps.get(contract.clientPackage.name);
  const problems: string[] = [];
  if (breaking.length > 0 && !newMajor) {
    problems.push(`${breaking.length} breaking change(s) within ${versionLabel(majorBefore)}: release them as a new major version of the base path`);
  }
  if (judgements.length > 0 && bump === undefined) {
    problems.push(`no pending changeset names ${contract.clientPackage.name} (run pnpm changeset)`);
  }
  if (newMajor && bump !== undefined && bump !== 'major') {
    problems.push(`the base path moved to ${versionLabel(majorAfter)}: the changeset for ${contract.clientPackage.name} must be a major bump, not ${bump}`);
  }
  const counts = `${judgements.length} difference(s) (${judgements.length - breaking.length} allowed, ${breaking.length} breaking)`;
  const versions = `${versionLabel(majorBefore)} -> ${versionLabel(majorAfter)}`;
  const verdict = problems.length > 0 ? `FAILED: ${problems.join('; ')}` : 'OK';
  return {
    contract,
    status: problems.length > 0 ? 'failed' : 'passed',
    judgements,
    problems,
    lines: [...judgements.map(formatJudgement), `${contract.name}: ${counts}, ${versions}: ${verdict}`],
  };
}

export async function check(options: CheckOptions): Promise<{ ok: boolean; reports: ContractReport[] }> {
  const bumps = await pendingChangesets(options.changesetDir);
  const reports: ContractReport[] = [];
  for (const contract of options.contracts ?? allContracts) reports.push(await checkContract(contract, options, bumps));
  return { ok: reports.every((r) => r.status !== 'failed'), reports };
}
