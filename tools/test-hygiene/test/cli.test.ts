import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';

const workspace = fileURLToPath(new URL('fixtures/workspace', import.meta.url));

/** Runs the command line in process, in the fixture workspace, and keeps what it printed. */
async function run(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, (line) => out.push(line), (line) => err.push(line), workspace);
  return { code, out, err };
}

describe('paykit-test-hygiene on a workspace', () => {
  it('lists every problem as file:line: rule: what to do, then a count per package, and exits 1', async () => {
    const { code, out } = await run();
    expect(code).toBe(1);
    expect(out.map((line) => line.split(': ').slice(0, 2).join(': '))).toEqual([
      'pkgs/dirty/vitest.config.ts:3: config-timeout',
      'pkgs/dirty/src/format.test.ts:3: file-timeout',
      'pkgs/dirty/test/support/settle.ts:2: sleep',
      '',
      'test hygiene: 3 problems in 3 files (2 packages, 3 test files, 2 vitest configs):',
      '  @fixture/dirty (pkgs/dirty): 3 problems in 3 files',
      'The rules and how to meet each: tools/test-hygiene/README.md',
      'import graph: 2 packages, 0 imports between them',
    ]);
  });

  it.each([
    { filter: '@fixture/clean', code: 0 },
    { filter: 'clean', code: 0 },
    { filter: 'pkgs/clean', code: 0 },
    { filter: '@fixture/dirty', code: 1 },
    { filter: '@fixture/*', code: 1 },
  ])('--filter $filter checks that package only (exit $code)', async ({ filter, code }) => {
    const result = await run('--filter', filter);
    expect(result.code).toBe(code);
    if (code === 0) expect(result.out).toEqual(['test hygiene: 1 package, 1 test files, 1 vitest configs: no problem']);
  });

  it('checks only the files under a path given', async () => {
    const { code, out } = await run('pkgs/dirty/test');
    expect(code).toBe(1);
    expect(out.filter((line) => line.startsWith('pkgs/')).map((line) => line.split(':').slice(0, 2).join(':'))).toEqual(['pkgs/dirty/test/support/settle.ts:2']);
  });

  it.each([
    { args: ['--filter', 'nothing-like-it'], says: 'no package matches "nothing-like-it"' },
    { args: ['pkgs/missing'], says: 'no such file or folder: pkgs/missing' },
    { args: ['--unknown'], says: "Unknown option '--unknown'" },
  ])('$args is a usage error (exit 2)', async ({ args, says }) => {
    const { code, err } = await run(...args);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain(says);
  });

  // A process of its own, with tsx compiling the check at start: seconds on a loaded machine, hence 30 s.
  it('runs as the bin the root script calls', async () => {
    const bin = fileURLToPath(new URL('../bin/paykit-test-hygiene.js', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [bin, '--root', workspace, '--filter', 'clean']);
    expect(stdout).toBe('test hygiene: 1 package, 1 test files, 1 vitest configs: no problem\n');
  }, 30_000);
});
