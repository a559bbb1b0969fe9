import { readFileSync } from 'node:fs';

/**
 * A process as another process can recognise it later: its id and, where the system says (Linux `/proc`), when it
 * started, so that an id reused by an unrelated process after a crash is not taken for the one that crashed.
 */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot, as `/proc/<pid>/stat` gives it; '' where unknown. */
  start: string;
}

/** The start time of a running process, '' where the system does not say, undefined when it does not run. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 22; the command name (field 2, in parentheses) may hold spaces, so count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return '';
    return signalZero(pid) ? '' : undefined;
  }
}

/** kill(pid, 0): whether a process (or, with a negative pid, a process group) exists. */
export function signalZero(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function identify(pid: number): ProcessIdentity {
  return { pid, start: startTime(pid) ?? '' };
}

/** Whether that very process still runs (an unknown start time trusts the id alone). */
export function isRunning(process: ProcessIdentity): boolean {
  const now = startTime(process.pid);
  if (now === undefined) return false;
  return process.start === '' || now === '' || now === process.start;
}

/**
 * Whether a process group still has a member, given its leader's identity (a group's id is its leader's pid). The
 * system gives no new process an id still used by a group, so while the leader is gone and the group lives on, the id
 * is still that group's; a leader's id held by a process started at another time means the group is gone.
 */
export function isGroupRunning(leader: ProcessIdentity): boolean {
  const now = startTime(leader.pid);
  if (now !== undefined) return leader.start === '' || now === '' || now === leader.start;
  return signalZero(-leader.pid);
}

/** An identity as a file name part, `<pid>-<start>`, and back. */
export function identityName(process: ProcessIdentity): string {
  return `${process.pid}-${process.start}`;
}

export function parseIdentityName(text: string): ProcessIdentity | undefined {
  const match = /^(\d+)-(\d*)$/.exec(text);
  return match ? { pid: Number(match[1]), start: match[2]! } : undefined;
}
