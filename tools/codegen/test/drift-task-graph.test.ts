// end-to-end: runs turbo's dry run and each package's generators (openapi-typescript and friends) as child processes.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';

// A turbo dry run takes seconds; a package's generators, several processes in a row, took 13 s at a load average of
// 20 on this 2-core machine (over two minutes before turbo's concurrency was bounded): 60 s a test, 120 s a generator.
vi.setConfig({ testTimeout: 60_000 });

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const turbo = fileURLToPath(new URL('../../../node_modules/.bin/turbo', import.meta.url));

interface DryRunTask {
  taskId: string;
  command: string;
  /** The package's folder, relative to the repository root. */
  directory: string;
  resolvedTaskDefinition: { outputs: string[] };
}

/**
 * The drift check compares the committed generated files with what the generators would write. If its task graph
 * also ran a generator (through some package's `^build`), the check could read a file while that generator rewrites
 * it, and fail or pass by timing: CI once reported a generated file as missing that way.
 */
async function tasksOfTheDriftCheck(): Promise<DryRunTask[]> {
  return dryRun('check:generated');
}

/** The tasks `turbo run <task>` would run, with their commands, from its dry run. */
async function dryRun(task: string): Promise<DryRunTask[]> {
  const { stdout } = await promisify(execFile)(turbo, ['run', task, '--dry=json'], {
    cwd: repositoryRoot,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const plan = JSON.parse(stdout) as { tasks: DryRunTask[] };
  return plan.tasks.filter((task) => task.command !== '<NONEXISTENT>');
}

describe('the check:generated task graph', () => {
  it('runs the drift checks and never a generator or the build of a generated package', async () => {
    const tasks = await tasksOfTheDriftCheck();
    const ids = tasks.map((task) => task.taskId);
    expect(ids).toEqual(
      expect.arrayContaining([
        '@paykit/payments#check:generated',
        '@paykit/file-exchange#check:generated',
        '@paykit/file-exchange-soap#check:generated',
        '@paykit/payments-sandbox#check:generated',
        '@paykit/file-exchange-mock#check:generated',
        '@paykit/mock-server#check:generated',
        '@paykit/contract-proxy#check:generated',
      ]),
    );
    const writers = ids.filter(
      (id) => id.endsWith('#generate') || /^@paykit\/(payments|file-exchange|file-exchange-soap|payments-sandbox|file-exchange-mock|mock-server|contract-proxy)#build$/.test(id),
    );
    expect(writers).toEqual([]);
  });
});

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * Runs a package's `generate` command as turbo would (each generator of the `&&` chain, from the package's folder,
 * with its bins on the PATH), but with `--out scratch`: the generators write the package folders under `scratch`
 * instead of the repository, so what they would write anywhere can be listed.
 */
async function generateInto(task: DryRunTask, scratch: string): Promise<string[]> {
  const cwd = join(repositoryRoot, task.directory);
  const env = { ...process.env, PATH: [join(cwd, 'node_modules/.bin'), process.env.PATH].join(delimiter) };
  for (const step of task.command.split('&&').map((part) => part.trim())) {
    const [bin, ...args] = step.split(/\s+/);
    await promisify(execFile)(bin!, [...args, '--out', scratch], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
  }
  return filesUnder(scratch);
}

describe('each package generates only into itself', async () => {
  const generators = (await dryRun('generate')).filter((task) => task.taskId.endsWith('#generate') && task.command !== '<NONEXISTENT>');

  it('covers every package that generates code, the mock packages included', () => {
    expect(generators.map((task) => task.taskId).sort()).toEqual([
      '@paykit/contract-proxy#generate',
      '@paykit/file-exchange#generate',
      '@paykit/file-exchange-mock#generate',
      '@paykit/file-exchange-soap#generate',
      '@paykit/mock-server#generate',
      '@paykit/payments#generate',
      '@paykit/payments-sandbox#generate',
    ]);
  });

  it.each(generators.map((task) => [task.taskId, task] as const))('%s declares outputs inside its package', (_, task) => {
    expect(task.resolvedTaskDefinition.outputs.length).toBeGreaterThan(0);
    expect(task.resolvedTaskDefinition.outputs.filter((output) => output.includes('$TURBO_ROOT$') || output.split('/').includes('..'))).toEqual([]);
  });

  it.each(generators.map((task) => [task.taskId, task] as const))(
    '%s writes files into its own package and nowhere else',
    async (_, task) => {
      const scratch = await mkdtemp(join(tmpdir(), 'paykit-generate-'));
      try {
        const written = await generateInto(task, scratch);
        expect(written.length).toBeGreaterThan(0);
        expect(written.filter((file) => !file.startsWith(`${task.directory}/`))).toEqual([]);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
