import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** One fact a test proved: an operation called and validated, or a mutation the client survived. */
export type SummaryRecord =
  | { contract: string; kind: 'operation'; operationId: string; total: number }
  | { contract: string; kind: 'mutation'; operationId: string; rule: string };

/**
 * Appends a record for the end-of-run summary. Each worker writes its own file (no locking needed); the global
 * teardown reads them all. Call it only after the test's assertions passed.
 */
export function recordSummary(directory: string, record: SummaryRecord): void {
  mkdirSync(directory, { recursive: true });
  appendFileSync(join(directory, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(record)}\n`);
}

/** `contract payments: 64/64 operations, 640 mutations survived` per contract, in name order. */
export function summaryLines(directory: string): string[] {
  let files: string[];
  try {
    files = readdirSync(directory).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const records = files.flatMap((file) =>
    readFileSync(join(directory, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SummaryRecord),
  );
  const contracts = [...new Set(records.map((r) => r.contract))].sort();
  return contracts.map((contract) => {
    const mine = records.filter((r) => r.contract === contract);
    const covered = new Set(mine.filter((r) => r.kind === 'operation').map((r) => r.operationId));
    const total = Math.max(0, ...mine.map((r) => (r.kind === 'operation' ? r.total : 0)));
    const mutations = mine.filter((r) => r.kind === 'mutation');
    const rules = new Map<string, number>();
    for (const m of mutations) if (m.kind === 'mutation') rules.set(m.rule, (rules.get(m.rule) ?? 0) + 1);
    const perRule = [...rules.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([rule, count]) => `${rule} ${count}`)
      .join(', ');
    return `contract ${contract}: ${covered.size}/${total} operations, ${mutations.length} mutations survived${perRule ? ` (${perRule})` : ''}`;
  });
}
