import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const turbo = fileURLToPath(new URL('../../../node_modules/.bin/turbo', import.meta.url));

interface DryRunTask {
  taskId: string;
  command: string;
}

/**
 * The drift check compares the committed generated files with what the generators would write. If its task graph
 * also ran a generator (through some package's `^build`), the check could read a file while that generator rewrites
 * it, and fail or pass by timing: CI once reported a generated file as missing that way.
 */
async function tasksOfTheDriftCheck(): Promise<DryRunTask[]> {
  const { stdout } = await promisify(execFile)(turbo, ['run', 'check:generated', '--dry=json'], {
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
      ]),
    );
    const writers = ids.filter((id) => id.endsWith('#generate') || /^@paykit\/(payments|file-exchange|file-exchange-soap|mock-server)#build$/.test(id));
    expect(writers).toEqual([]);
  });
});
