import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mockSpecPath, type RestContract } from './specs.js';

export interface PrismMockOptions {
  contract: RestContract;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Generate responses from the schemas instead of serving the examples. */
  dynamic?: boolean;
  /** Called with every line Prism logs (requests, validation violations). */
  onLog?: (line: string) => void;
}

export interface RunningMock {
  /** Base address of the contract on this mock, e.g. `http://127.0.0.1:4010/rest/v1`. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** The Prism CLI, bundled by the build (scripts/bundle-prism.mjs); `../dist` resolves from both src/ and dist/. */
function prismBin(): string {
  const path = fileURLToPath(new URL('../dist/prism/prism.cjs', import.meta.url));
  if (!existsSync(path)) throw new Error(`Prism is missing at ${path}: build @paykit/mock-server first (pnpm build).`);
  return path;
}

async function freePort(host: string): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface PrismProxyOptions {
  contract: RestContract;
  /** Where Prism forwards what it validated, e.g. `http://127.0.0.1:4012` (Prism appends the request's whole path). */
  upstream: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * Prism's `--errors`: a request that breaks the contract is answered 422 (401 for security) and never forwarded,
   * and an answer that breaks it becomes a problem answer.
   */
  errors?: boolean;
  onLog?: (line: string) => void;
}

/** Starts the real Prism CLI on one REST contract and resolves once it listens. */
export function startPrismMock(options: PrismMockOptions): Promise<RunningMock> {
  return startPrism(options, ['mock', ...(options.dynamic ? ['-d'] : [])], []);
}

/**
 * Starts Prism's proxy mode on one REST contract: every request and answer crossing it is validated, the violations
 * named in each answer's `sl-violations` header (JSON: `location`, `code`, `message`, `severity`).
 */
export function startPrismProxy(options: PrismProxyOptions): Promise<RunningMock> {
  return startPrism(options, ['proxy', ...(options.errors ? ['--errors'] : [])], [options.upstream]);
}

async function startPrism(options: PrismMockOptions | PrismProxyOptions, command: string[], after: string[]): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  const specPath = mockSpecPath(options.contract);
  const { readFile } = await import('node:fs/promises');
  const basePath = (JSON.parse(await readFile(specPath, 'utf8')) as { 'x-paykit-mock-base-path'?: string })[
    'x-paykit-mock-base-path'
  ];
  const args = [prismBin(), ...command, '-h', host, '-p', String(port), specPath, ...after];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false' } });
  const named = host === '0.0.0.0' ? '127.0.0.1' : /^[0:]+$/.test(host) ? '::1' : host;
  // An address a client can call: 0.0.0.0 and :: listen on every interface but name none.
  const origin = `http://${named.includes(':') ? `[${named}]` : named}:${port}`;

  await new Promise<void>((resolve, reject) => {
    let output: string | undefined = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      for (const line of text.split('\n')) if (line.trim()) options.onLog?.(line);
      // Prism logs every request (a proxy, several lines each): once it listens, nothing more is kept.
      if (output === undefined) return;
      output += text;
      if (output.includes('Prism is listening')) {
        output = undefined;
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Prism exited (code ${code}) before listening:\n${(output ?? '').slice(-2000)}`)));
    child.once('error', reject);
  });

  return { url: origin + (basePath ?? ''), origin, close: () => stop(child) };
}
