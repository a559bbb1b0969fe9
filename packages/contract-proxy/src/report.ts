import type { Side, Violation } from './violation.js';

/** What a reviewer needs to know of the run before reading its findings. */
export interface ReportContext {
  proxy: { name: string; version: string };
  /** The contract checked against: its registry name, title and `info.version`. */
  contract: { name: string; title: string; version: string };
  /** The base address of the service the traffic went to. */
  upstream: string;
  /** `strict`: requests that broke a rule were refused; `observe`: everything was passed on and reported. */
  mode: 'strict' | 'observe';
}

/** The repeats of one rule broken at one place of one operation, counted, with the exchanges they were found in. */
export interface ViolationGroup {
  rule: string;
  side: Side;
  operation: string;
  location: string;
  /** The message of the first occurrence. */
  message: string;
  /** Where the rule comes from (see `Violation.source`). */
  source: string;
  count: number;
  /** The first `exchangesPerGroup` exchanges it was found in (the HAR entries' `_paykitExchange`). */
  exchanges: number[];
}

/** How one exchange ended, as the report counts it. */
export type Outcome = number | 'refused' | 'unreachable';

/** An exchange a violation points at. */
export interface ExchangeSummary {
  number: number;
  startedAt: string;
  operation: string;
  method: string;
  outcome: Outcome;
}

/** An exchange as the proxy counts it. */
export type CountedExchange = Omit<ExchangeSummary, 'startedAt'> & { startedAt: number };

/** An operation of the contract that no exchange of the run called. */
export interface UncalledOperation {
  id: string;
  method: string;
  path: string;
}

/** The summary of a proxy run: context, what crossed it, what broke the contract, what was never tried, a verdict. */
export interface ProxyReport extends ReportContext {
  startedAt: string;
  endedAt: string;
  exchanges: number;
  /** Requests refused before they left (`--strict`). */
  refused: number;
  /** Requests the service never answered (the proxy answered 502). */
  unreachable: number;
  /** The service's answers by status code. */
  statuses: Record<string, number>;
  /** Exchanges by operation (operationId, or `METHOD /path` outside the contract). */
  operations: Record<string, number>;
  coverage: { operations: number; exercised: number; notExercised: UncalledOperation[] };
  /** Violations by rule, split into requests and answers. */
  byRule: Record<string, Record<Side, number>>;
  totals: Record<Side, number>;
  /** Every violation, grouped by rule, side, operation and location; none is dropped, repeats are counted. */
  groups: ViolationGroup[];
  /** The exchanges the groups point at. */
  exchangesCited: ExchangeSummary[];
  verdict: { passed: boolean; reasons: string[]; notes: string[] };
}

/** Exchanges cited per group: enough to find the pattern, bounded so a long run's report stays small. */
export const exchangesPerGroup = 20;
/** Distinct paths outside the contract counted one by one; beyond that they share one line. */
const outsideContractNames = 100;
const outsideContractOverflow = '(other paths outside the contract)';

export interface ReportOptions {
  context: ReportContext;
  /** Every operation of the contract, for the coverage. */
  operations: readonly UncalledOperation[];
  now?: () => Date;
}

/**
 * Collects a run as it goes. What it holds is bounded by the contract (operations, rules, locations) and by
 * `exchangesPerGroup`, not by the traffic: 100,000 exchanges cost what 100 do.
 */
export class ReportCollector {
  private readonly startedAt: Date;
  private readonly operations = new Map<string, number>();
  private readonly statuses = new Map<string, number>();
  private readonly byRule = new Map<string, Record<Side, number>>();
  private readonly totals: Record<Side, number> = { request: 0, answer: 0 };
  private readonly groups = new Map<string, ViolationGroup>();
  private readonly cited = new Map<number, ExchangeSummary>();
  private exchanges = 0;
  private refused = 0;
  private unreachable = 0;
  private outside = 0;
  private readonly now: () => Date;

  constructor(private readonly options: ReportOptions) {
    this.now = options.now ?? (() => new Date());
    this.startedAt = this.now();
  }

  /**
   * Counts one exchange (`startedAt` in `Date.now()` milliseconds: written out only for an exchange the report cites);
   * `violations` are those found in it, each carrying its exchange number.
   */
  exchange(summary: CountedExchange, violations: readonly Violation[]): void {
    this.exchanges++;
    if (summary.outcome === 'refused') this.refused++;
    else if (summary.outcome === 'unreachable') this.unreachable++;
    else {
      const status = String(summary.outcome);
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    }
    let name = summary.operation;
    if (!this.operations.has(name) && name.includes(' ') && ++this.outside > outsideContractNames) name = outsideContractOverflow;
    this.operations.set(name, (this.operations.get(name) ?? 0) + 1);
    for (const violation of violations) this.add(violation, summary);
  }

  private add(violation: Violation, summary: CountedExchange): void {
    const counts = this.byRule.get(violation.rule) ?? { request: 0, answer: 0 };
    counts[violation.side]++;
    this.byRule.set(violation.rule, counts);
    this.totals[violation.side]++;
    const key = `${violation.side}\n${violation.rule}\n${violation.operation}\n${violation.location}`;
    let group = this.groups.get(key);
    if (!group) {
      const { rule, side, operation, location, message, source } = violation;
      group = { rule, side, operation, location, message, source, count: 0, exchanges: [] };
      this.groups.set(key, group);
    }
    group.count++;
    if (group.exchanges.length < exchangesPerGroup && group.exchanges.at(-1) !== violation.exchange) {
      group.exchanges.push(violation.exchange);
      if (!this.cited.has(summary.number)) this.cited.set(summary.number, { ...summary, startedAt: new Date(summary.startedAt).toISOString() });
    }
  }

  snapshot(): ProxyReport {
    const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
    const notExercised = this.options.operations.filter((operation) => !this.operations.has(operation.id));
    const groups = [...this.groups.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule) || a.operation.localeCompare(b.operation));
    const violations = this.totals.request + this.totals.answer;
    const reasons: string[] = [];
    if (this.totals.request > 0) reasons.push(`${this.totals.request} request violations (${this.groupsOf('request')} distinct)`);
    if (this.totals.answer > 0) reasons.push(`${this.totals.answer} answer violations (${this.groupsOf('answer')} distinct)`);
    if (this.refused > 0) reasons.push(`${this.refused} requests refused before they left (--strict)`);
    if (this.exchanges === 0) reasons.push('no exchange crossed the proxy: there is nothing to judge');
    const notes: string[] = [];
    const clientErrors = [...this.statuses].filter(([status]) => status.startsWith('4')).map(([status, count]) => `${count} × ${status}`);
    if (clientErrors.length) notes.push(`the service refused requests: ${clientErrors.join(', ')}`);
    const serverErrors = [...this.statuses].filter(([status]) => status.startsWith('5')).map(([status, count]) => `${count} × ${status}`);
    if (serverErrors.length) notes.push(`the service failed requests: ${serverErrors.join(', ')}`);
    if (this.unreachable > 0) notes.push(`${this.unreachable} requests never reached the service (the proxy answered 502)`);
    if (notExercised.length > 0) notes.push(`${notExercised.length} of ${this.options.operations.length} operations of the contract were not exercised`);
    return {
      ...this.options.context,
      startedAt: this.startedAt.toISOString(),
      endedAt: this.now().toISOString(),
      exchanges: this.exchanges,
      refused: this.refused,
      unreachable: this.unreachable,
      statuses: sorted(this.statuses),
      operations: sorted(this.operations),
      coverage: { operations: this.options.operations.length, exercised: this.options.operations.length - notExercised.length, notExercised },
      byRule: sorted(this.byRule),
      totals: { ...this.totals },
      groups,
      exchangesCited: [...this.cited.values()].sort((a, b) => a.number - b.number),
      verdict: { passed: violations === 0 && this.refused === 0 && this.exchanges > 0, reasons, notes },
    };
  }

  private groupsOf(side: Side): number {
    let count = 0;
    for (const group of this.groups.values()) if (group.side === side) count++;
    return count;
  }
}

/** The report as the text printed at the end of a run. */
export function renderText(report: ProxyReport): string {
  const lines = [
    `contract proxy: ${report.exchanges} exchanges, ${report.totals.request} request violations, ${report.totals.answer} answer violations` +
      (report.refused ? `, ${report.refused} requests refused (--strict)` : '') +
      (report.unreachable ? `, ${report.unreachable} never reached the service` : ''),
    `verdict: ${report.verdict.passed ? 'PASS' : 'FAIL'}${report.verdict.reasons.length ? ` (${report.verdict.reasons.join('; ')})` : ''}`,
    `${report.contract.title} ${report.contract.version} via ${report.upstream}, ${report.mode} mode, ${report.proxy.name} ${report.proxy.version}`,
    `answers by status: ${Object.entries(report.statuses).map(([status, count]) => `${status} × ${count}`).join(', ') || 'none'}`,
    `coverage: ${report.coverage.exercised} of ${report.coverage.operations} operations exercised`,
    'operations seen:',
    ...Object.entries(report.operations).map(([operation, count]) => `  ${operation.padEnd(40)} ${count}`),
  ];
  const rules = Object.entries(report.byRule);
  lines.push(rules.length ? 'violations by rule (requests / answers):' : 'no violations');
  for (const [rule, counts] of rules) lines.push(`  ${rule.padEnd(40)} ${counts.request} / ${counts.answer}`);
  for (const note of report.verdict.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}
