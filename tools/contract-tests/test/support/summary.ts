import { inject } from 'vitest';
import { recordSummary, type SummaryRecord } from '../../src/run-summary.js';

export function record(entry: SummaryRecord): void {
  recordSummary(inject('summaryDirectory'), entry);
}
