import type { Side, Violation } from './violation.js';

/** The summary of a proxy run: what crossed it and what broke the contract, per rule and per direction. */
export interface ProxyReport {
  startedAt: string;
  endedAt: string;
  /** Exchanges seen, by operation (operationId, or `METHOD /path` outside the contract). */
  operations: Record<string, number>;
  exchanges: number;
  /** Violations by rule, split into requests and answers. */
  byRule: Record<string, Record<Side, number>>;
  /** Violations in requests and in answers. */
  totals: Record<Side, number>;
  /** Requests refused before they left (`--strict`). */
  refused: number;
  /** The violations themselves, the first `violationLimit` of them. */
  violations: Violation[];
}

const violationLimit = 1000;

export class ReportCollector {
  private readonly startedAt = new Date();
  private readonly operations = new Map<string, number>();
  private readonly byRule = new Map<string, Record<Side, number>>();
  private readonly totals: Record<Side, number> = { request: 0, answer: 0 };
  private readonly kept: Violation[] = [];
  private exchanges = 0;
  private refused = 0;

  exchange(operation: string, refused: boolean): void {
    this.exchanges++;
    if (refused) this.refused++;
    this.operations.set(operation, (this.operations.get(operation) ?? 0) + 1);
  }

  add(violations: readonly Violation[]): void {
    for (const violation of violations) {
      const counts = this.byRule.get(violation.rule) ?? { request: 0, answer: 0 };
      counts[violation.side]++;
      this.byRule.set(violation.rule, counts);
      this.totals[violation.side]++;
      if (this.kept.length < violationLimit) this.kept.push(violation);
    }
  }

  snapshot(): ProxyReport {
    const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));
    return {
      startedAt: this.startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      operations: sorted(this.operations),
      exchanges: this.exchanges,
      byRule: sorted(this.byRule),
      totals: { ...this.totals },
      refused: this.refused,
      violations: [...this.kept],
    };
  }
}

/** The report as the text printed at the end of a run. */
export function renderText(report: ProxyReport): string {
  const lines = [
    `contract proxy: ${report.exchanges} exchanges, ${report.totals.request} request violations, ${report.totals.answer} answer violations` +
      (report.refused ? `, ${report.refused} requests refused (--strict)` : ''),
    'operations seen:',
    ...Object.entries(report.operations).map(([operation, count]) => `  ${operation.padEnd(40)} ${count}`),
  ];
  const rules = Object.entries(report.byRule);
  lines.push(rules.length ? 'violations by rule (requests / answers):' : 'no violations');
  for (const [rule, counts] of rules) lines.push(`  ${rule.padEnd(40)} ${counts.request} / ${counts.answer}`);
  return lines.join('\n');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The report as one static HTML page: no script, no outside resource. */
export function renderHtml(report: ProxyReport): string {
  const row = (cells: (string | number)[]) => `<tr>${cells.map((c) => `<td>${escapeHtml(String(c))}</td>`).join('')}</tr>`;
  const table = (head: string[], rows: string[]) =>
    `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contract proxy report</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}th{background:#f3f3f3}</style>
</head><body>
<h1>Contract proxy report</h1>
<p>${escapeHtml(report.startedAt)} to ${escapeHtml(report.endedAt)}: ${report.exchanges} exchanges, ${report.totals.request} request violations, ${report.totals.answer} answer violations, ${report.refused} refused.</p>
<h2>Operations seen</h2>
${table(['operation', 'exchanges'], Object.entries(report.operations).map(([o, n]) => row([o, n])))}
<h2>Violations by rule</h2>
${table(['rule', 'requests', 'answers'], Object.entries(report.byRule).map(([r, c]) => row([r, c.request, c.answer])))}
<h2>Violations</h2>
${table(['side', 'rule', 'operation', 'location', 'message'], report.violations.map((v) => row([v.side, v.rule, v.operation, v.location, v.message])))}
</body></html>
`;
}
