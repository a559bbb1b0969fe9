import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const processScript = fileURLToPath(new URL('./sandbox-process.mjs', import.meta.url));

export interface SandboxProcess {
  url: string;
  /** Resolves with the signal that ended the process (null for a normal exit). */
  exited: Promise<NodeJS.Signals | null>;
  /** Stops the process with `signal` (SIGTERM: it closes its store first; SIGKILL: a crash). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The built sandbox with `--state` as a real process of its own, with `env` added to its environment (the crash
 * points of `src/state/crash-points.ts`), and its base address once it listens.
 */
export async function startSandboxProcess(state: string, keys: { secret: string; publishable: string }, env: Record<string, string> = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [processScript, state, keys.secret, keys.publishable], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /payments-sandbox ready: (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => reject(new Error(`the sandbox process exited early:\n${output}`)));
  });
  return {
    url,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
