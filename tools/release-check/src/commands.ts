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

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
