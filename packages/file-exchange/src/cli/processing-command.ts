import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { open, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, join } from 'node:path';
import { identify, type ProcessIdentity } from '@paykit/process-liveness';
import { handledStatusPrefix } from '../temporary-files.js';
import type { ReceivedFile } from '../process-all.js';

/** The processing command exited with a failure, was killed or could not start; the file stays in the queue. */
export class ProcessingCommandError extends Error {
  override readonly name = 'ProcessingCommandError';
}

export interface ProcessingCommandOptions {
  env: NodeJS.ProcessEnv;
  /**
   * Where the command's output goes: this process's own standard output and error are handed to it (inherited, so
   * that a command that outlives a killed paykit-files keeps writing where it did); other streams (paykit-files run
   * inside another program) are given what it writes.
   */
  output?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  /**
   * Called once the command's process group exists and before the command runs: records it where the next run looks
   * (the run lock, the folder of the file), so that a run after this one was killed leaves its file alone while it
   * runs. Resolves with the function that forgets it.
   */
  hold(leader: ProcessIdentity): Promise<() => Promise<void>>;
}

/** Process groups of the commands running, and the promises of their ends. */
const running = new Map<number, Promise<unknown>>();
let stopping: NodeJS.Signals | undefined;

/**
 * Passes a signal that stops this process on to the whole process group of each processing command (the command and
 * whatever it started), and starts no command after it.
 */
export function stopProcessingCommands(signal: NodeJS.Signals): void {
  stopping ??= signal;
  for (const group of running.keys()) {
    try {
      process.kill(-group, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Resolves once no processing command runs. */
export async function processingCommandsEnded(): Promise<void> {
  while (running.size > 0) await Promise.allSettled(running.values());
}

/**
 * The shell that starts the command waits until told on descriptor 3: its process group is recorded (hold) before
 * the command runs, and if this process dies before telling it (SIGKILL), the descriptor reads end-of-file and the
 * command never starts. Once the command has ended, the shell writes its exit status over the first bytes of the note
 * beside the file (`~handled-…`, made before the command starts with `---` there and the file's name after: written in
 * place, the status needs no room a full disk could refuse). A command that outlives a paykit-files killed with
 * SIGKILL and exits 0 has handled its file, and the next run records it instead of handing it over again. The shell
 * waits for the command through a signal (a trap that does nothing), so that the status is the command's own, and
 * then ends the way the command did.
 */
const startWhenTold =
  'IFS= read -r go <&3 || exit 125; exec 3<&-; trap : TERM INT HUP; /bin/sh -c "$1"; status=$?; ' +
  'printf \'%-3s\' "$status" 1<> "$2"; ' +
  // A command ended by a signal ends its shell by the same signal, so that paykit-files sees what ended it.
  'if [ "$status" -gt 128 ]; then trap - TERM INT HUP; kill -$((status - 128)) $$; fi; exit $status';

/** The note's content before the command has ended: the status's three bytes, then the file's name. */
const unfinished = (name: string) => `--- ${name}\n`;

/** The status file of the command handed `file`: in the file's private folder, named by the file's copy. */
export function handledStatusPath(file: ReceivedFile): string {
  return join(dirname(file.path), `${handledStatusPrefix}${basename(file.path)}`);
}

/** The size on disk is the size received (a copy is never handed over short), and its SHA-256 for the command. */
async function checkedCopy(file: ReceivedFile): Promise<string> {
  const handle = await open(file.path, 'r');
  try {
    const { size } = await handle.stat();
    if (size !== file.size) throw new ProcessingCommandError(`processing command not started: the downloaded copy holds ${size} bytes, not the ${file.size} received`);
    const hash = createHash('sha256');
    await pipeline(handle.createReadStream({ start: 0, autoClose: false }), hash);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/**
 * Runs the user's processing command through the shell for one complete, checked file: its standard input is the
 * downloaded file itself (not a pipe), and PAYKIT_FILE_NAME, PAYKIT_FILE_PATH, PAYKIT_FILE_SIZE and PAYKIT_FILE_SHA256
 * describe it. It runs in a process group of its own, so that a signal to paykit-files reaches all of it through
 * stopProcessingCommands (and a terminal's Ctrl-C does not reach it first). Exit status 0 means processed; its output
 * goes to ours.
 */
export async function runProcessingCommand(command: string, file: ReceivedFile, options: ProcessingCommandOptions): Promise<void> {
  if (stopping) throw new ProcessingCommandError(`processing command not started: paykit-files is stopping (${stopping})`);
  const sha256 = await checkedCopy(file);
  // Made before the command starts (a full disk then stops it here, unstarted): the shell only writes over it.
  await writeFile(handledStatusPath(file), unfinished(file.name), { mode: 0o600 }).catch((error: unknown) => {
    throw new ProcessingCommandError(`processing command not started: its note ${handledStatusPath(file)} could not be written (${(error as Error).message})`);
  });
  const input = await open(file.path, 'r');
  const stdout = options.output?.stdout ?? process.stdout;
  const stderr = options.output?.stderr ?? process.stderr;
  const pass = (stream: NodeJS.WritableStream, own: NodeJS.WritableStream) => (stream === own ? 'inherit' : 'pipe');
  let child;
  try {
    child = spawn('/bin/sh', ['-c', startWhenTold, 'paykit-files', command, handledStatusPath(file)], {
      detached: true,
      stdio: [input.fd, pass(stdout, process.stdout), pass(stderr, process.stderr), 'pipe'],
      env: { ...options.env, PAYKIT_FILE_NAME: file.name, PAYKIT_FILE_PATH: file.path, PAYKIT_FILE_SIZE: String(file.size), PAYKIT_FILE_SHA256: sha256 },
    });
  } finally {
    // The child has its own copy of the descriptor (spawn duplicates it before returning).
    await input.close();
  }
  child.stdout?.on('data', (chunk: Buffer) => stdout.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
  const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  const failedToStart = once(child, 'error').then(([error]: Error[]) => {
    throw new ProcessingCommandError(`processing command could not start: ${error!.message}`);
  });
  // Told through the race below; never an unhandled rejection once the command has ended.
  failedToStart.catch(() => undefined);
  if (child.pid === undefined) return failedToStart;
  const group = child.pid;
  const task = (async () => {
    const forget = await options.hold(identify(group)).catch(async (error: unknown) => {
      process.kill(-group, 'SIGKILL');
      throw new ProcessingCommandError(`processing command not started: its process could not be recorded (${(error as Error).message})`);
    });
    try {
      const go = child.stdio[3] as NodeJS.WritableStream;
      go.on('error', () => undefined);
      // Stopped between spawn and here: the group was signalled already; do not let the command start.
      if (stopping) process.kill(-group, stopping);
      else go.end('go\n');
      const [code, signal] = await Promise.race([closed, failedToStart]);
      if (code === 0) return;
      throw new ProcessingCommandError(`processing command ${signal ? `was killed by ${signal}` : `exited with status ${code}`}`);
    } finally {
      await forget();
    }
  })();
  // Removed from the map once all of it is over (its records forgotten), before processingCommandsEnded looks again.
  running.set(
    group,
    task.then(
      () => undefined,
      () => undefined,
    ).finally(() => running.delete(group)),
  );
  return task;
}
