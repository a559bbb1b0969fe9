import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

// The webhook endpoints of consumers/webhook-receiver.mjs (Node, Bun, Deno) and consumers/worker-webhook-receiver.mjs
// (workerd), each started as a server on a free port of 127.0.0.1 that the payments sandbox can post notifications to.

/** What a receiver checks with: the subscription's secret and Basic credentials, and its body cap. */
export interface ReceiverConfig {
  secret: string;
  username: string;
  password: string;
  maxBodyBytes: number;
}

export interface RunningReceiver {
  /** Where the receiver listens: POST notifications here, GET `${url}events` lists the events it received. */
  url: string;
  close(): Promise<void>;
}

export interface ReceiverRuntime {
  name: string;
  start(config: ReceiverConfig, limitMs: number): Promise<RunningReceiver>;
}

const consumer = (file: string) => fileURLToPath(new URL(`../consumers/${file}`, import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** Starts a receiver process and waits for the port it prints; killed when closed, or when it fails to start in time. */
function startProcess(command: string, args: string[], config: ReceiverConfig, limitMs: number, extraEnv: Record<string, string> = {}): Promise<RunningReceiver> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PAYKIT_SMOKE_WEBHOOK: JSON.stringify(config), ...extraEnv };
  // A group of its own: a runtime's launcher in node_modules/.bin (deno's is a Node script) starts the real binary as
  // its child, which a kill of the launcher alone would leave running after the suite (found: orphaned deno receivers).
  const child: ChildProcess = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    try {
      process.kill(-child.pid!, 'SIGKILL'); // the whole group, even when the launcher itself has gone
    } catch {
      // ESRCH: nothing of the group is left
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const limit = setTimeout(() => void close().then(() => reject(new Error(`${command}: no port after ${limitMs} ms:\n${stderr}`))), limitMs);
    child.once('exit', (code) => {
      clearTimeout(limit);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before listening:\n${stderr}`));
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(limit);
      const { port } = JSON.parse(line) as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/`, close });
    });
  });
}

/** The worker bundled as Wrangler would (esbuild, workerd's export conditions), served by Miniflare on a free port. */
async function startWorkerReceiver(config: ReceiverConfig): Promise<RunningReceiver> {
  const bundle = await build({
    entryPoints: [consumer('worker-webhook-receiver.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*', 'node:*'],
    logLevel: 'silent',
  });
  let log = '';
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: bundle.outputFiles[0]!.text }],
    compatibilityDate: '2026-04-26',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { PAYKIT_SMOKE_WEBHOOK: JSON.stringify(config) },
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      for (const stream of [stdout, stderr]) stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
    },
  });
  try {
    const url = await worker.ready;
    return { url: new URL('/', url).href, close: () => worker.dispose() };
  } catch (error) {
    await worker.dispose().catch(() => undefined);
    throw new Error(`${String(error)}\n${log}`);
  }
}

export const receiverRuntimes: ReceiverRuntime[] = [
  { name: 'Node', start: (config, limitMs) => startProcess(process.execPath, [consumer('webhook-receiver.mjs')], config, limitMs) },
  { name: 'Bun', start: (config, limitMs) => startProcess(bin('bun'), ['--no-install', consumer('webhook-receiver.mjs')], config, limitMs) },
  {
    name: 'Deno',
    start: (config, limitMs) =>
      startProcess(
        bin('deno'),
        ['run', '--cached-only', '--allow-env=PAYKIT_SMOKE_WEBHOOK', '--allow-net=127.0.0.1', consumer('webhook-receiver.mjs')],
        config,
        limitMs,
        { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(tmpdir(), 'paykit-runtime-smoke-deno') },
      ),
  },
  { name: 'workerd (Miniflare)', start: (config) => startWorkerReceiver(config) },
];
