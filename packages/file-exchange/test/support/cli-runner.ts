import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { MockFixture } from './mock.js';

/**
 * The built CLI, as a user runs it: its own process, configured by environment and options. PAYKIT_FILES_CLI_UNDER_TEST
 * names another build of it, to check that a test fails on code with a defect put back in (a mutant).
 */
export const bin = process.env.PAYKIT_FILES_CLI_UNDER_TEST ?? new URL('../../dist/cli/main.js', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  stdin?: Buffer | string | AsyncIterable<Buffer>;
  /** Standard input as a shell's `< file` makes it. */
  stdinFile?: string;
  env?: NodeJS.ProcessEnv;
}

/** Runs paykit-files against the fixture's mock, in `dir()` (the test's folder, which also holds the ledger). */
export function cliRunner(fx: () => MockFixture, dir: () => string) {
  function environment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      PAYKIT_FILES_BASE_URL: fx().mock.restUrl,
      PAYKIT_FILES_CERT_FILE: fx().certificates.clientPfxPath,
      PAYKIT_FILES_CERT_PASSWORD: fx().certificates.clientPfxPassword,
      PAYKIT_FILES_CA_FILE: fx().certificates.caCertPath,
      PAYKIT_FILES_RETRY_INTERVAL: '0.02',
      PAYKIT_FILES_RETRY_FOR: '0.1',
      PAYKIT_FILES_LEDGER: join(dir(), 'ledger.txt'),
      ...extra,
    };
  }

  /** Starts the CLI without waiting for it (for signals); its output is collected into the result. */
  function start(args: string[], options: CliOptions & { spawn?: SpawnOptions } = {}) {
    const stdinFd = options.stdinFile === undefined ? undefined : openSync(options.stdinFile, 'r');
    const child = spawn(process.execPath, [bin, ...args], {
      env: options.env ?? environment(),
      cwd: dir(),
      stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
      ...options.spawn,
    });
    if (stdinFd !== undefined) closeSync(stdinFd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    const result = new Promise<CliResult>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    });
    const input = options.stdin ?? '';
    if (typeof input === 'string' || Buffer.isBuffer(input)) child.stdin?.end(input);
    else if (child.stdin) Readable.from(input).pipe(child.stdin);
    return { child, result, stderr: () => Buffer.concat(err).toString() };
  }

  /** Runs the CLI to its end; `stdin` is piped to it, or `stdinFile` is its standard input. */
  const cli = (args: string[], options: CliOptions = {}): Promise<CliResult> => start(args, options).result;

  return { environment, start, cli };
}

/** Whether a process of that id exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
