import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface PaykitMockProcess {
  child: ChildProcess;
  /** What it printed until it said it was ready. */
  output: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** The built `paykit-mock` CLI as a real process, once it has printed that its mocks are ready. */
export async function startPaykitMock(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<PaykitMockProcess> {
  const child = spawn(process.execPath, [cli, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('mocks ready')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => reject(new Error(`paykit-mock exited early:\n${output}`)));
  });
  return { child, output, exited };
}
