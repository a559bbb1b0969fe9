import type { ChildProcess } from 'node:child_process';

/**
 * Everything a child process prints (stdout and stderr, in arrival order), and a wait for a piece of it: the event
 * a test waits for when another process does something on its own clock.
 */
export class PrintedOutput {
  private printed = '';
  private ended: string | undefined;
  private readonly waiting = new Set<() => void>();

  constructor(child: ChildProcess) {
    const take = (chunk: Buffer) => {
      this.printed += chunk.toString();
      for (const check of this.waiting) check();
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('exit', (code, signal) => {
      this.ended = `the process exited (${signal ?? `code ${code}`})`;
      for (const check of this.waiting) check();
    });
  }

  get text(): string {
    return this.printed;
  }

  /** Resolves once the process has printed `text` (at any time since it started); fails if it exits before. */
  until(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.printed.includes(text)) {
          this.waiting.delete(check);
          resolve();
        } else if (this.ended !== undefined) {
          this.waiting.delete(check);
          reject(new Error(`${this.ended} without printing ${JSON.stringify(text)}; it printed:\n${this.printed.slice(-2000)}`));
        }
      };
      this.waiting.add(check);
      check();
    });
  }
}
