import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { stepNames } from '../consumers/steps.mjs';

/** What one step gave, as the consumer printed it. */
export interface StepOutcome {
  status?: number;
  kind?: string;
  attempts?: number;
  idempotencyKey?: string;
  found?: string[];
  outcome?: string;
  verified?: boolean;
  tampered?: string;
  thrown?: string;
}
export type Outcomes = Record<string, StepOutcome>;

/** The consumer's configuration: the sandbox's client settings and its own customer number. */
export interface SmokeConfig {
  baseUrl: string;
  secretKey: string;
  publishableKey: string;
  timeoutMs: number;
  customerNumber: string;
}

const consumer = (file: string) => fileURLToPath(new URL(`../consumers/${file}`, import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** Runs a consumer script to its end (or kills it after `limitMs`) and reads the outcomes it printed. */
function runScript(command: string, args: string[], config: SmokeConfig, limitMs: number, extraEnv: Record<string, string> = {}): Promise<Outcomes> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PAYKIT_SMOKE: JSON.stringify(config), ...extraEnv };
    execFile(command, args, { env, timeout: limitMs, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${command} ${args.join(' ')} failed (${error.killed ? `still running after ${limitMs} ms` : error.message}):\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcomes);
    });
  });
}

export interface Runtime {
  name: string;
  run(config: SmokeConfig, limitMs: number): Promise<Outcomes>;
}

/** Bundles a worker as Wrangler would (esbuild, workerd's export conditions, `cloudflare:` modules left to workerd). */
async function bundleWorker(file: string): Promise<string> {
  const bundle = await build({
    entryPoints: [consumer(file)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*', 'node:*'],
    logLevel: 'silent',
  });
  return bundle.outputFiles[0]!.text;
}

/** Serves a worker with Miniflare, with the Node built-ins of workerd's nodejs_compat flag or without. */
export async function startWorker(file: string, config: SmokeConfig, nodejsCompat: boolean): Promise<Miniflare> {
  let log = '';
  const worker = new Miniflare({
    // As a module list, not a script: Miniflare would refuse the `node:` imports before workerd sees them.
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(file) }],
    compatibilityDate: '2026-04-26',
    compatibilityFlags: nodejsCompat ? ['nodejs_compat'] : [],
    bindings: { PAYKIT_SMOKE: JSON.stringify(config) },
    // workerd says why a worker does not start on its own output; the error only says that it did not.
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      for (const stream of [stdout, stderr]) stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
    },
  });
  try {
    await worker.ready;
  } catch (error) {
    await worker.dispose().catch(() => undefined);
    throw new Error(`${String(error)}\n${log}`);
  }
  return worker;
}

/** Sends `GET /<path>` to each worker in turn, one request each, and reads the JSON answers. */
async function ask(requests: [Miniflare, string][], limitMs: number): Promise<Outcomes> {
  const outcomes: Outcomes = {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const asking = (async () => {
    for (const [worker, path] of requests) outcomes[path] = (await (await worker.dispatchFetch(`http://worker.test/${path}`)).json()) as StepOutcome;
  })();
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`workerd: still running after ${limitMs} ms, with the outcomes ${JSON.stringify(outcomes)}`)), limitMs);
  });
  try {
    await Promise.race([asking, limit]);
  } finally {
    clearTimeout(timer);
  }
  return outcomes;
}

/**
 * The clients' worker runs without nodejs_compat (they need no Node built-in), one request per step, so that the
 * module-scoped clients serve each call in a new request; the webhook helpers' worker runs with the flag.
 */
async function runWorkers(config: SmokeConfig, limitMs: number): Promise<Outcomes> {
  const clients = await startWorker('worker.mjs', config, false);
  const webhooks = await startWorker('worker-webhooks.mjs', config, true);
  try {
    return await ask([...stepNames.map((name): [Miniflare, string] => [clients, name]), [webhooks, 'webhook']], limitMs);
  } finally {
    await Promise.all([clients.dispose(), webhooks.dispose()]);
  }
}

/** Nothing is fetched at run time: Bun does not auto-install, Deno only uses what node_modules holds. */
export const runtimes: Runtime[] = [
  { name: 'Node, ES module', run: (config, limitMs) => runScript(process.execPath, [consumer('module.mjs')], config, limitMs) },
  { name: 'Node, CommonJS require()', run: (config, limitMs) => runScript(process.execPath, [consumer('require.cjs')], config, limitMs) },
  { name: 'Bun', run: (config, limitMs) => runScript(bin('bun'), ['--no-install', consumer('module.mjs')], config, limitMs) },
  {
    name: 'Deno',
    run: (config, limitMs) =>
      runScript(
        bin('deno'),
        ['run', '--cached-only', '--allow-env=PAYKIT_SMOKE', `--allow-net=${new URL(config.baseUrl).host}`, consumer('module.mjs')],
        config,
        limitMs,
        { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(tmpdir(), 'paykit-runtime-smoke-deno') },
      ),
  },
  { name: 'workerd (Miniflare)', run: runWorkers },
];
