import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnvironment, killGroup, waitFor } from './commands.js';

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`, with the trailing slash npm and pnpm write in `.npmrc`. */
  url: string;
  /** Where Verdaccio keeps what is published: `<storage>/<scope>/<name>/<name>-<version>.tgz`. */
  storage: string;
  close(): Promise<void>;
}

/** The npm scope our packages are published under; the only one this registry serves. */
export const scope = '@paykit';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// No uplink: the registry never goes outside. It serves and accepts our scope only, from anyone, so that no
// third-party package can be served (or shadowed) by it: those come from the machine's normal registry.
function configuration(storage: string): string {
  return [
    `storage: ${JSON.stringify(storage)}`,
    'uplinks: {}',
    'packages:',
    `  '${scope}/*':`,
    '    access: $all',
    '    publish: $anonymous',
    'web:',
    '  enable: false',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

/** Starts Verdaccio (the real npm registry server) on 127.0.0.1 and a free port, with its storage under `dir`. */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const storage = join(dir, 'storage');
  const configPath = join(dir, 'verdaccio.yaml');
  await writeFile(configPath, configuration(storage));
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('verdaccio/package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = join(dirname(manifestPath), typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.verdaccio!);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const exitWithParent = fileURLToPath(new URL('../scripts/exit-with-parent.cjs', import.meta.url));
  const child = spawn(process.execPath, ['--require', exitWithParent, bin, '--config', configPath, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    env: cleanEnvironment(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`Verdaccio exited (code ${code}) before answering`))),
  );
  const answers = () => fetch(new URL('-/ping', url)).then((response) => response.ok, () => false); // not listening yet
  // Polling stops when the registry exits too (`exited` has then already said why).
  const answering = waitFor(async () => child.exitCode !== null || (await answers()), { what: `Verdaccio answering on ${url}`, timeoutMs: 60_000 });
  try {
    await Promise.race([answering, exited]);
  } catch (error) {
    killGroup(child.pid);
    throw new Error(`${(error as Error).message}; its output:\n${output}`);
  }
  exited.catch(() => undefined); // its exit after close() is expected
  return {
    url,
    storage,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        killGroup(child.pid);
      }),
  };
}
