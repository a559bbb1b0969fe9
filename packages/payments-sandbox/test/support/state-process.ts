import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const processScript = fileURLToPath(new URL('./sandbox-process.mjs', import.meta.url));

export interface SandboxProcess {
  url: string;
  /** Resolves with the signal that ended the process (null for a normal exit). */
  exited: Promise<NodeJS.Signals | null>;
  /** Resolves once the process has printed a line matching `pattern` (its test points: `src/state/crash-points.ts`). */
  printed(pattern: RegExp): Promise<void>;
  /** Sends a signal (SIGUSR2 releases a held test point). */
  signal(signal: NodeJS.Signals): void;
  /** Stops the process with `signal` (SIGTERM: it closes its store first; SIGKILL: a crash). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The built sandbox with `--state` as a real process of its own, with `env` added to its environment (the test
 * points of `src/state/crash-points.ts`), and its base address once it listens.
 */
export async function startSandboxProcess(state: string, keys: { secret: string; publishable: string }, env: Record<string, string> = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [processScript, state, keys.secret, keys.publishable], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let output = '';
  const watchers = new Set<{ pattern: RegExp; resolve: () => void }>();
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watcher of watchers) if (watcher.pattern.test(output)) (watchers.delete(watcher), watcher.resolve());
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const url = await new Promise<string>((resolve, reject) => {
    const ready = { pattern: /payments-sandbox ready: (\S+)/, resolve: () => resolve(/payments-sandbox ready: (\S+)/.exec(output)![1]!) };
    watchers.add(ready);
    read(Buffer.alloc(0));
    child.once('exit', () => reject(new Error(`the sandbox process exited early:\n${output}`)));
  });
  return {
    url,
    exited,
    printed: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(output)) return resolve();
        watchers.add({ pattern, resolve });
        void exited.then(() => reject(new Error(`the sandbox process exited before printing ${pattern}:\n${output}`)));
      }),
    signal: (signal) => void child.kill(signal),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
