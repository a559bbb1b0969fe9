// Runs the real Redocly CLI (the one `pnpm lint-specs` uses) and reads its JSON output. Bundles come from
// @paykit/contracts' bundleOpenApi, exactly as the code generator and the mock get them.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '@paykit/contracts';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

const redoclyBin = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string; source: { ref: string } }[];
}

export interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

function run(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((done) => {
    execFile(process.execPath, [redoclyBin, ...args], { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ stdout, stderr, code });
    });
  });
}

/** Lints one API description (a file path or an `apis` alias of redocly.yaml), optionally with another config. */
export async function lint(target: string, config?: string): Promise<LintReport> {
  const args = ['lint', target, '--format', 'json', ...(config ? ['--config', config] : [])];
  const { stdout, stderr } = await run(args);
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly lint ${target} printed no report:\n${stderr}`);
  return JSON.parse(stdout.slice(start)) as LintReport;
}
