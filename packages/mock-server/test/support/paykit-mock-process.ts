import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface PaykitMockProcess {
  child: ChildProcess;
  /** What it printed until it said it was ready. */
  output: string;
  /** Everything it has printed so far (stdout and stderr, in arrival order). */
  printed(): string;
  /**
   * Resolves once it has printed `text` (at any time since it started), the event to wait for when the process
   * does something on its own clock; fails if it exits before.
   */
  until(text: string): Promise<void>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** The built `paykit-mock` CLI as a real process, once it has printed that its mocks are ready. */
export async function startPaykitMock(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<PaykitMockProcess> {
  const child = spawn(process.execPath, [cli, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  let ended: string | undefined;
  const waiting = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = `paykit-mock exited (${signal ?? `code ${code}`})`;
      for (const check of waiting) check();
      resolve(code);
    }),
  );
  const take = (chunk: Buffer) => {
    printed += chunk.toString();
    for (const check of waiting) check();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const until = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (printed.includes(text)) {
          waiting.delete(check);
          resolve();
        } else if (ended !== undefined) {
          waiting.delete(check);
          reject(new Error(`${ended} without printing ${JSON.stringify(text)}; it printed:\n${printed.slice(-2000)}`));
        }
      };
      waiting.add(check);
      check();
    });
  await until('mocks ready');
  return { child, output: printed, printed: () => printed, until, exited };
}
