import { spawn, type ChildProcess } from 'node:child_process';
import type { ReceivedFile } from '../process-all.js';

/** The processing command exited with a failure or could not start; the file stays in the queue. */
export class ProcessingCommandError extends Error {
  override readonly name = 'ProcessingCommandError';
}

const running = new Set<ChildProcess>();

/** Passes a signal that stops this process on to the processing commands still running. */
export function stopProcessingCommands(signal: NodeJS.Signals): void {
  for (const child of running) child.kill(signal);
}

/**
 * Runs the user's processing command through the shell for one file: the content arrives on standard input, and
 * PAYKIT_FILE_NAME / PAYKIT_FILE_PATH name it. Exit status 0 means processed; its output goes to ours.
 */
export function runProcessingCommand(command: string, file: ReceivedFile, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      stdio: ['pipe', 'inherit', 'inherit'],
      env: { ...env, PAYKIT_FILE_NAME: file.name, PAYKIT_FILE_PATH: file.path },
    });
    running.add(child);
    child.once('error', (error) => reject(new ProcessingCommandError(`processing command could not start: ${error.message}`)));
    child.once('close', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new ProcessingCommandError(`processing command ${signal ? `was killed by ${signal}` : `exited with status ${code}`}`));
    });
    // A command that does not read its input closes the pipe early; that is its choice, not a failure.
    child.stdin!.on('error', () => undefined);
    file.open().on('error', (error) => child.stdin!.destroy(error)).pipe(child.stdin!);
  });
}
