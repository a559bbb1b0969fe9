// Runs the real Redocly CLI (the one `pnpm lint-specs` uses) and reads its JSON output.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
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

/** Bundles a split API description into one JSON document, exactly as the code generator and the mock do. */
export async function bundle(specPath: string): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'spec-lint-bundle-'));
  try {
    const out = join(dir, 'bundle.json');
    const { code, stderr } = await run(['bundle', specPath, '--ext', 'json', '-o', out]);
    if (code !== 0) throw new Error(`redocly bundle ${specPath} failed:\n${stderr}`);
    return JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
