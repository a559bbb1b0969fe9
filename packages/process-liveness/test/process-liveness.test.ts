import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { identify, identityName, isGroupRunning, isRunning, parseIdentityName, startTime, type ProcessTable } from '../src/index.js';
import { hasProcStat } from '../src/testing.js';

/** A child that runs until it is killed, and the event of its exit. */
async function startChild(options: { detached?: boolean } = {}) {
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("up"); setInterval(() => {}, 1 << 30)'], { stdio: ['ignore', 'pipe', 'ignore'], ...options });
  await once(child.stdout!, 'data');
  return { child, exited: once(child, 'exit') };
}

describe.runIf(hasProcStat)('on this Linux, with /proc', () => {
  it('knows this process by its pid and start time', () => {
    const self = identify(process.pid);
    expect(self.start).toMatch(/^\d+$/);
    expect(isRunning(self)).toBe(true);
  });

  it('reads a pid held by a process started at another time (a reused pid) as not running', () => {
    const self = identify(process.pid);
    expect(isRunning(self)).toBe(true); // the same pid with its own start time runs
    expect(isRunning({ pid: process.pid, start: String(Number(self.start) + 1) })).toBe(false);
  });

  it('reads a process that ended as not running, and an owner recorded without a start time by its pid alone', async () => {
    const { child, exited } = await startChild();
    const owner = identify(child.pid!);
    expect(isRunning(owner)).toBe(true);
    expect(isRunning({ pid: owner.pid, start: '' })).toBe(true);
    child.kill('SIGKILL');
    await exited;
    // Reaped: its pid is free, or another process's with another start time; either way not this owner.
    expect(isRunning(owner)).toBe(false);
  });

  it('keeps a process group running after its leader is gone only while the leader pid is not reused', async () => {
    const { child, exited } = await startChild({ detached: true });
    const leader = identify(child.pid!);
    expect(isGroupRunning(leader)).toBe(true);
    expect(isGroupRunning({ pid: leader.pid, start: String(Number(leader.start) + 1) })).toBe(false);
    process.kill(-leader.pid, 'SIGKILL');
    await exited;
    expect(isGroupRunning(leader)).toBe(false);
  });

  it('reads a command name holding spaces and parentheses', () => {
    const table: ProcessTable = { readStat: () => `42 (a) b (c) S ${'1 '.repeat(18)}777 0`, signalZero: () => true };
    expect(startTime(42, table)).toBe('777');
  });
});

/** A system without /proc (macOS, Windows): reading a stat fails as readFileSync does. */
const noProc = (alive: Set<number>, code = 'ENOENT'): ProcessTable => ({
  readStat: () => {
    throw Object.assign(new Error(code), { code });
  },
  signalZero: (pid) => alive.has(pid),
});

describe('the fallback where /proc/<pid>/stat cannot be read: kill(pid, 0) alone', () => {
  it.each([
    { case: 'a live pid, whatever start was recorded', table: noProc(new Set([42])), owner: { pid: 42, start: '123' }, running: true },
    { case: 'a dead pid', table: noProc(new Set()), owner: { pid: 42, start: '123' }, running: false },
    { case: 'a stat that cannot be read for another reason (EACCES)', table: noProc(new Set(), 'EACCES'), owner: { pid: 42, start: '123' }, running: true },
    { case: 'a malformed stat', table: { readStat: () => 'garbage', signalZero: () => true }, owner: { pid: 42, start: '123' }, running: true },
    { case: 'pid 0 (never signalled: it would mean this process group)', table: noProc(new Set([0])), owner: { pid: 0, start: '' }, running: false },
    { case: 'a negative pid', table: noProc(new Set([-42])), owner: { pid: -42, start: '' }, running: false },
  ])('$case: running $running', ({ table, owner, running }) => {
    expect(isRunning(owner, table)).toBe(running);
  });

  it('records no start time there', () => {
    expect(identify(42, noProc(new Set([42])))).toEqual({ pid: 42, start: '' });
  });

  it('asks the process group when the leader pid is free', () => {
    const groups = new Set<number>();
    const table: ProcessTable = { readStat: noProc(new Set()).readStat, signalZero: (pid) => groups.has(pid) };
    expect(isGroupRunning({ pid: 42, start: '9' }, table)).toBe(false);
    groups.add(-42);
    expect(isGroupRunning({ pid: 42, start: '9' }, table)).toBe(true);
  });
});

describe('the recorded form of an owner', () => {
  it.each([
    { text: '123-456', owner: { pid: 123, start: '456' } },
    { text: '123-', owner: { pid: 123, start: '' } },
    // What the sandbox wrote before start times were recorded.
    { text: '123', owner: { pid: 123, start: '' } },
    { text: '0', owner: undefined },
    { text: '-5', owner: undefined },
    { text: '123-4x', owner: undefined },
    { text: 'abc', owner: undefined },
    { text: '', owner: undefined },
    { text: '99999999999999999999', owner: undefined },
  ])('$text reads as $owner', ({ text, owner }) => {
    expect(parseIdentityName(text)).toEqual(owner);
  });

  it('reads back what it writes', () => {
    const self = identify(process.pid);
    expect(parseIdentityName(identityName(self))).toEqual(self);
  });
});
