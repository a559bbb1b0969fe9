import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { summaryLines } from '../../src/run-summary.js';

declare module 'vitest' {
  export interface ProvidedContext {
    summaryDirectory: string;
  }
}

/** Gives the test files a folder for their summary records, and prints one line per contract at the end. */
export default function setup(project: TestProject) {
  const directory = mkdtempSync(join(tmpdir(), 'paykit-contract-summary-'));
  project.provide('summaryDirectory', directory);
  return () => {
    const lines = summaryLines(directory);
    process.stdout.write(`\n${lines.length > 0 ? lines.join('\n') : 'contract tests: nothing recorded'}\n`);
    rmSync(directory, { recursive: true, force: true });
  };
}
