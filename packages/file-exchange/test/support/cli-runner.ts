import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/main.js';
import { startMock, type MockFixture } from './mock.js';
import { startMtlsServer } from './mtls-server.js';

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

/** A run of the CLI under way: its result, and what it wrote to standard error so far. */
export interface CliRun {
  result: Promise<CliResult>;
  stderr(): string;
}

/**
 * Runs paykit-files against the fixture's mock, in `dir()` (the test's folder, which also holds the ledger).
 *
 * `cli` and `run` drive it in this process, through `runCli(args, io)` with standard input, output, error, the
 * environment and the abort signal given as `io` (the seam `main.ts` fills from the process): no process start per
 * test. `start` runs the built bin in a process of its own, for the tests of what only a process has: signals, exit
 * statuses, SIGKILL, a second process holding the run lock.
 *
 * Retries wait 20 ms. The window they have is no deadline a test races: 30 s by default (a test that needs a retry
 * gets it, whatever the machine's load; one that should not need one fails on vitest's timeout long before), and a
 * test about giving up sets `PAYKIT_FILES_RETRY_FOR` to 0, which gives up at the first failure.
 */
export function cliRunner(fx: () => MockFixture, dir: () => string) {
  function environment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      PAYKIT_FILES_BASE_URL: fx().mock.restUrl,
      PAYKIT_FILES_CERT_FILE: fx().certificates.clientPfxPath,
      PAYKIT_FILES_CERT_PASSWORD: fx().certificates.clientPfxPassword,
      PAYKIT_FILES_CA_FILE: fx().certificates.caCertPath,
      PAYKIT_FILES_RETRY_INTERVAL: '0.02',
      PAYKIT_FILES_RETRY_FOR: '30',
      PAYKIT_FILES_LEDGER: join(dir(), 'ledger.txt'),
      ...extra,
    };
  }

  /** Starts the built CLI in its own process without waiting for it (for signals); its output is collected. */
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

  /**
   * Runs the CLI in this process: standard input is `stdin` (a stream, as from a pipe) or the file `stdinFile` by its
   * descriptor (as `< file` gives it), standard error is not a terminal. `signal` stands for the signals the bin turns
   * into an abort of the run.
   */
  function run(args: string[], options: CliOptions & { signal?: AbortSignal; now?: () => number } = {}): CliRun {
    const stdinFd = options.stdinFile === undefined ? undefined : openSync(options.stdinFile, 'r');
    let stdout = '';
    let stderr = '';
    const input = options.stdin ?? '';
    const io: CliIo = {
      stdin: () => (typeof input === 'string' || Buffer.isBuffer(input) ? Readable.from([Buffer.from(input)]) : Readable.from(input)),
      ...(stdinFd === undefined ? {} : { stdinFd }),
      stdout: { write: (text: string | Uint8Array) => ((stdout += text.toString()), true) } as unknown as NodeJS.WritableStream,
      stderr: { write: (text: string | Uint8Array) => ((stderr += text.toString()), true), isTTY: false } as unknown as CliIo['stderr'],
      env: options.env ?? environment(),
      signal: options.signal,
      ...(options.now ? { now: options.now } : {}),
    };
    const result = runCli(args, io)
      .then((code): CliResult => ({ code, stdout, stderr }))
      .finally(() => {
        if (stdinFd !== undefined) closeSync(stdinFd);
      });
    return { result, stderr: () => stderr };
  }

  /** Runs the CLI to its end in this process; `stdin` is its standard input, or `stdinFile` redirected to it. */
  const cli = (args: string[], options: CliOptions = {}): Promise<CliResult> => run(args, options).result;

  return { environment, start, run, cli };
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

/**
 * A test file of the CLI against the stateful mock: the mock for the whole file (`fx`), a fresh folder per test
 * (`dir`, named `<prefix>…`, holding the ledger), and after each test the downloads left queued deleted and the folder
 * removed; the runner of `cliRunner` on them, and the little the CLI files all use.
 */
export function cliSuite(prefix: string) {
  let fixture: MockFixture | undefined;
  let folder: string | undefined;
  beforeAll(async () => {
    fixture = await startMock();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    const cleaner = await fx().client();
    for (const name of fx().mock.store.pendingDownloads()) await cleaner.delete(name);
    await rm(dir(), { recursive: true, force: true });
  });
  const fx = (): MockFixture => {
    if (!fixture) throw new Error('the mock is started in beforeAll');
    return fixture;
  };
  const dir = (): string => {
    if (!folder) throw new Error('the folder is made in beforeEach');
    return folder;
  };
  const contentOf = (name: string) => Buffer.from(`content of ${name}\n`.repeat(100));
  const suite = {
    get fx() {
      return fx();
    },
    get dir() {
      return dir();
    },
    ...cliRunner(fx, dir),
    /** A file's content as `enqueue` queues it: its name, on 100 lines. */
    contentOf,
    /** Queues files of these names on the mock for download. */
    enqueue(...names: string[]) {
      for (const fileName of names) fx().mock.store.enqueueDownload({ fileName, content: contentOf(fileName) });
    },
    /** The names in the ledger, none when there is no ledger yet. */
    ledgerNames: async () => (await readFile(join(dir(), 'ledger.txt'), 'utf8').catch(() => '')).split('\n').filter(Boolean),
    /** A service with one file, SLOW.bin (10 000 bytes), sent 1000 bytes every `everyMs`. */
    startTrickleServer(everyMs: number) {
      return startMtlsServer(fx().certificates, (request, response) => {
        if (request.url?.endsWith('/filesForDownload/')) return void response.writeHead(200, { 'content-type': 'text/plain' }).end('SLOW.bin\n');
        if (request.method === 'DELETE') return void response.writeHead(204).end();
        response.writeHead(200, { 'content-length': '10000', 'content-type': 'application/octet-stream' });
        let sent = 0;
        // A server that sends slowly: a download still under way when the test acts (a signal, a log interval). The
        // tests act on what the CLI reports, so how slow the machine is changes nothing.
        // real-time: a slow server, 1000 bytes a tick
        const timer = setInterval(() => {
          if (response.destroyed) return clearInterval(timer);
          response.write(Buffer.alloc(1000));
          if ((sent += 1000) >= 10_000) {
            clearInterval(timer);
            response.end();
          }
        }, everyMs);
      });
    },
  };
  return suite;
}
