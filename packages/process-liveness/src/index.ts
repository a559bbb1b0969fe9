import { readFileSync } from 'node:fs';

/**
 * A process as another process can recognise it later: its id and, where the system says (Linux `/proc`), when it
 * started, so that an id the system gave again to an unrelated process after a crash is not taken for the one that
 * crashed.
 */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot, as field 22 of `/proc/<pid>/stat` gives it; '' where unknown. */
  start: string;
}

/** What this module asks of the system; tests pass their own to play a system without `/proc`. */
export interface ProcessTable {
  /** The text of `/proc/<pid>/stat`; throws as `readFileSync` does (ENOENT: no such process, or no `/proc`). */
  readStat(pid: number): string;
  /** `kill(pid, 0)`: whether a process (a process group, with a negative pid) exists, whoever owns it. */
  signalZero(pid: number): boolean;
}

export const systemProcesses: ProcessTable = {
  readStat: (pid) => readFileSync(`/proc/${pid}/stat`, 'latin1'),
  signalZero,
};

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

/**
 * The start time of a running process; '' where the system does not say; undefined when it does not run.
 *
 * The fallback: where `/proc/<pid>/stat` cannot be read (macOS, Windows, a Linux without `/proc`, or `/proc` mounted
 * with `hidepid` for another user's process), the start time is unknown and `kill(pid, 0)` alone says whether the
 * id is in use, so there a reused id reads as running, as a pid-only check would.
 */
export function startTime(pid: number, table: ProcessTable = systemProcesses): string | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = table.readStat(pid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return '';
    return table.signalZero(pid) ? '' : undefined;
  }
  // Field 22; the command name (field 2, in parentheses) may hold spaces or parentheses, so count from after its end.
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  return /^\d+$/.test(start) ? start : '';
}

export function identify(pid: number, table: ProcessTable = systemProcesses): ProcessIdentity {
  return { pid, start: startTime(pid, table) ?? '' };
}

/** Whether that very process still runs (a start time unknown on either side trusts the id alone). */
export function isRunning(owner: ProcessIdentity, table: ProcessTable = systemProcesses): boolean {
  const now = startTime(owner.pid, table);
  if (now === undefined) return false;
  return owner.start === '' || now === '' || now === owner.start;
}

/**
 * Whether a process group still has a member, given its leader's identity (a group's id is its leader's pid). The
 * system gives no new process an id still used by a group, so while the leader is gone and the group lives on, the id
 * is still that group's; a leader's id held by a process started at another time means the group is gone.
 */
export function isGroupRunning(leader: ProcessIdentity, table: ProcessTable = systemProcesses): boolean {
  if (!Number.isSafeInteger(leader.pid) || leader.pid <= 0) return false;
  const now = startTime(leader.pid, table);
  if (now !== undefined) return leader.start === '' || now === '' || now === leader.start;
  return table.signalZero(-leader.pid);
}

/** An identity as text (a file name part, a lock file's content): `<pid>-<start>`, `<pid>-` when the start is unknown. */
export function identityName(owner: ProcessIdentity): string {
  return `${owner.pid}-${owner.start}`;
}

/**
 * An identity read back from `identityName`'s text; also a bare `<pid>`, the form of lock files written before start
 * times were recorded (its start is unknown, so it is judged by the id alone). Undefined when the text is neither.
 */
export function parseIdentityName(text: string): ProcessIdentity | undefined {
  const match = /^(\d+)(?:-(\d*))?$/.exec(text);
  if (!match) return undefined;
  const pid = Number(match[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, start: match[2] ?? '' } : undefined;
}
