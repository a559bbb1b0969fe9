import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the command, in milliseconds. */
  ms: number;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The command is killed (with its process group) after this long, and the result says so. */
  timeoutMs: number;
}

/** Runs a command to completion, collecting its output; never throws on a non-zero exit (callers assert on it). */
export function run(command: string, args: string[], options: RunOptions): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // Its own process group, so that a timeout also stops what the command started (npm, turbo, Prism...).
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[release-check] ${command} ${args.join(' ')} killed after ${options.timeoutMs} ms`;
      killGroup(child.pid);
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Stops a process started with `detached: true` and everything in its group. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** `command args` and its output, for assertion messages. */
export function describeResult(command: string, result: CommandResult): string {
  return `${command} exited ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

// Variables that pnpm, npm, turbo and vitest set for the test itself. A merchant's shell has none of them, and some
// would steer the commands run here (npm_config_* and PNPM_CONFIG_* are configuration; NODE_OPTIONS loads code).
const inheritedToolVariables = /^(npm_|pnpm_|turbo_|vitest|node_options$|node_path$|init_cwd$|tinypool)/i;

/**
 * The environment of a shell that has never seen this workspace: the test's own, without the variables its runners
 * added and without `node_modules/.bin` folders on the PATH (pnpm puts the workspace's there).
 */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !inheritedToolVariables.test(key)) env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry !== '' && !entry.includes(`node_modules`))
    .join(delimiter);
  env.TURBO_TELEMETRY_DISABLED = '1';
  return { ...env, ...extra };
}

/**
 * A gate that lets at most `slots` pieces of work run at once, in the order they asked: the installs and type checks
 * of the merchant projects share two (the machine's cores, which the other suites of `pnpm test` share too).
 */
export function limiter(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < slots) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing piece hands its slot over
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Polls `condition` until it holds: the wait for an event that announces itself only by a state (a port that
 * answers, a process group that is gone). `timeoutMs` bounds a failure, never decides a success: the condition does.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { what, timeoutMs, intervalMs = 100 }: { what: string; timeoutMs: number; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
