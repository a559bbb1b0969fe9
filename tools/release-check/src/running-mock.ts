import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cleanEnvironment, killGroup, waitFor } from './commands.js';

/**
 * Runs `paykit-mock payments` on a free port in a merchant project (by `command`, e.g. `npx --no -- paykit-mock ...`
 * or `yarn paykit-mock ...`), waits for it to say it is ready (not for a time), hands `use` the payments mock's base
 * address, then stops the whole process group with SIGTERM and waits until it is gone: the mock and the Prism it
 * started must both stop.
 */
export async function withRunningMock<T>(cwd: string, [command, args]: [string, string[]], use: (baseUrl: string) => Promise<T>): Promise<T> {
  const child = spawn(command, args, { cwd, env: cleanEnvironment(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      // Bounds a failure only: the mock announcing itself is what ends the wait.
      const deadline = setTimeout(() => reject(new Error(`paykit-mock did not say it was ready within 60 s:\n${output}`)), 60_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /payments mock: (\S+)/.exec(output)?.[1];
        if (url !== undefined && output.includes('mocks ready')) {
          clearTimeout(deadline);
          resolve(url);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(deadline);
        reject(new Error(`paykit-mock exited (code ${code}):\n${output}`));
      });
    });
    return await use(baseUrl);
  } finally {
    killGroup(child.pid);
    await waitForGroupExit(child.pid);
  }
}

async function waitForGroupExit(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const gone = () => {
    try {
      process.kill(-pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  try {
    await waitFor(gone, { what: 'paykit-mock (or the Prism it started) stopping after SIGTERM', timeoutMs: 10_000 });
  } catch (error) {
    killGroup(pid, 'SIGKILL');
    throw error;
  }
}

/** The example bodies the contract gives for a 200 to GET `path`, from the spec the mock package ships. */
export function contractExamples(specPath: string, path: string): unknown[] {
  type Example = { value?: unknown; $ref?: string };
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as {
    paths: Record<string, { get?: { responses?: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }> } }>;
    components?: { examples?: Record<string, Example> };
  };
  const template = Object.keys(spec.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  const examples = Object.values(spec.paths[template ?? '']?.get?.responses?.['200']?.content?.['application/json']?.examples ?? {});
  return examples.map((example) => (example.$ref ? spec.components?.examples?.[example.$ref.split('/').pop()!]?.value : example.value));
}
