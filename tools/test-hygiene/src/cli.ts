import { parseArgs } from 'node:util';
import { checkWorkspace, type CheckReport } from './check.js';
import { importGraphProblems } from './import-graph.js';
import { configLimitMs, endToEndLimitMs, markerLines, unitFileLimitMs } from './rules.js';
import { findRoot, rootRelative } from './workspace.js';

const usage = `usage: paykit-test-hygiene [--filter PACKAGE]... [--root DIR] [PATH]...
Checks the tests of every workspace package (or those named by --filter: a package name such as @paykit/payments or
payments, or its folder; * matches anything), or only the files under the PATHs given, against the test hygiene rules
(tools/test-hygiene/README.md):
  config-timeout     a vitest config keeps vitest's default timeouts or sets at most ${configLimitMs} ms
  file-timeout       a test file sets at most ${unitFileLimitMs} ms, or ${endToEndLimitMs} ms with \`// end-to-end: <reason>\` in its first ${markerLines} lines
  end-to-end-marker  the marker names its reason
  sleep              setTimeout/sleep/delay in a test file runs under fake timers, in a waitFor…/waitUntil… poll loop,
                     or with \`// real-time: <reason>\` on its line or the line above
Without --filter or PATH it also checks the import graph of the whole workspace:
  import-direction   a package imports only workspace packages its package.json declares, the declared graph has no
                     cycle, and shipped code imports no tool, no devDependency-only package and (unless a mock) no mock
Exit code: 0 clean, 1 problems found, 2 usage.`;

type Print = (line: string) => void;

/** The report: one line per problem (file:line, rule, what to do), then a count per package that has any. */
export function formatReport(report: CheckReport): string[] {
  const files = new Set(report.problems.map((problem) => problem.file));
  const checked = report.packages.reduce((sum, pkg) => sum + pkg.testFiles, 0);
  const configs = report.packages.reduce((sum, pkg) => sum + pkg.configs, 0);
  const scope = `${report.packages.length} package${report.packages.length === 1 ? '' : 's'}, ${checked} test files, ${configs} vitest configs`;
  if (report.problems.length === 0) return [`test hygiene: ${scope}: no problem`];
  const lines = report.problems.map((problem) => `${problem.file}:${problem.line}: ${problem.rule}: ${problem.message}`);
  const perPackage = report.packages
    .filter((pkg) => pkg.problems.length > 0)
    .map((pkg) => {
      const inFiles = new Set(pkg.problems.map((problem) => problem.file)).size;
      return `  ${pkg.name} (${pkg.dir}): ${pkg.problems.length} problem${pkg.problems.length === 1 ? '' : 's'} in ${inFiles} file${inFiles === 1 ? '' : 's'}`;
    });
  return [
    ...lines,
    '',
    `test hygiene: ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'} (${scope}):`,
    ...perPackage,
    'The rules and how to meet each: tools/test-hygiene/README.md',
  ];
}

/** Runs the command line; returns the exit code. */
export async function main(args: string[], print: Print = console.log, printError: Print = console.error, cwd = process.env.INIT_CWD ?? process.cwd()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { filter: { type: 'string', multiple: true }, root: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    printError(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (parsed.values.help) {
    print(usage);
    return 0;
  }
  const root = parsed.values.root ?? findRoot(cwd);
  if (!root) {
    printError(`no pnpm-workspace.yaml at or above ${cwd}: give --root\n${usage}`);
    return 2;
  }
  let report: CheckReport;
  try {
    const paths = parsed.positionals.map((path) => rootRelative(root, path, cwd));
    report = checkWorkspace(root, { filters: parsed.values.filter ?? [], paths });
  } catch (error) {
    printError(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  for (const line of formatReport(report)) print(line);
  if (parsed.values.filter?.length || parsed.positionals.length) return report.problems.length === 0 ? 0 : 1;
  const graph = importGraphProblems(root);
  for (const problem of graph.problems) print(`${problem.file}:${problem.line}: import-direction: ${problem.message}`);
  const scope = `${graph.packages} packages, ${graph.imports} imports between them`;
  print(graph.problems.length === 0 ? `import graph: ${scope}: downward only` : `import graph: ${graph.problems.length} problem(s) (${scope}); the rules: tools/test-hygiene/README.md`);
  return report.problems.length === 0 && graph.problems.length === 0 ? 0 : 1;
}
