import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { identify, type ProcessIdentity } from './index.js';

// For the tests of the packages that record lock owners: the owners a test plants. Not inlined into any package (the
// published code imports only the main entry).

/** Whether this system gives start times (Linux /proc): the rows about reused pids need it. */
export const hasProcStat = existsSync(`/proc/${process.pid}/stat`);

/** The identity a process had, once it has ended (killed and reaped: its pid is free, or another process's). */
export async function endedProcess(): Promise<ProcessIdentity> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  const owner = identify(child.pid!);
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  return owner;
}

/** The same pid with another start time: what a reused pid looks like to a lock that recorded `owner`. */
export function reusedPid(owner: ProcessIdentity): ProcessIdentity {
  return { pid: owner.pid, start: String(Number(owner.start) + 1) };
}
