// end-to-end: processes of their own (compiled by tsx at their start, most of a minute on a loaded CI machine). In one,
// calls of both clients end in an abort or close() while a 5-minute retry wait or a stalled body is pending: it must
// then exit by itself, no timer, socket or listener of either client keeping it alive. In the other, every call's
// only end is an AbortSignal.timeout while garbage collections run: each must still end on it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { answer, stallMidBody } from './support/hostile-server.js';
import { hostileSuite, xml, text, partialSoap } from './support/hostile-suite.js';
import { byInterface } from './support/scoped-clients.js';

const suite = hostileSuite('paykit-process-exit-');

describe('after abort and close, the process exits', () => {
  it('lets the process exit by itself once its calls were aborted or closed (no timer or socket left)', async () => {
    // Every request of a scope gets its behaviour: the calls that wait get a 500, those that stall a body that stops.
    const waitingScope = suite.server.scope('exit-waiting', byInterface(answer(500), answer(500, text, 'busy')));
    // The child closes its clients once both stalled bodies are coming in: it is told so on its standard input.
    let stalledBodies = 0;
    let tellChild!: () => void;
    const bothStalled = new Promise<void>((resolve) => (tellChild = resolve));
    const onSent = () => setImmediate(() => setImmediate(() => ++stalledBodies === 2 && tellChild()));
    const stallingScope = suite.server.scope('exit-stalling', byInterface(stallMidBody(text, 'partial', onSent), stallMidBody(xml, partialSoap, onSent)));
    const child = fileURLToPath(new URL('./support/abort-child.ts', import.meta.url));
    const urls = ({ restUrl, soapUrl }: { restUrl: string; soapUrl: string }) => ({ restUrl, soapUrl });
    const input = { waiting: urls(waitingScope), stalling: urls(stallingScope), pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem };
    // The pending waits are 5 minutes (retry) and 2 minutes (stall): a process still alive 60 s after its last call
    // ended kept one of them. The clock starts at its report, not at the spawn: compiling the child with tsx took
    // most of a minute on a loaded CI machine.
    const { stdout, exitedAfterReportMs, code } = await runUntilExit(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, PAYKIT_CHILD_INPUT: JSON.stringify(input) },
      exitWithinMs: 60_000,
      closeWhen: bothStalled,
    });
    expect(code).toBe(0);
    expect(exitedAfterReportMs).toBeLessThan(60_000);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([
      'REST list, abort in the retry wait: AbortedError listFilesForDownload',
      'SOAP downloadFiles, abort in the retry wait: AbortedError downloadFiles',
      'REST download, close() mid-body: AbortedError downloadFile',
      'SOAP downloadFiles, close() mid-body: AbortedError downloadFiles',
    ]);
    // Each call that waits sent one request, and the retry it waited for never came.
    expect(waitingScope.requests.map(({ method, path }) => `${method} ${path.replace(/^\/exit-waiting/, '')}`)).toEqual([
      'GET /services/messaging/rest/filesForDownload/',
      'POST /services/messaging/DownloadFiles',
    ]);
  }, 120_000);
});

/**
 * Runs a child until it exits by itself, or until `exitWithinMs` after its first line of output (then kills it):
 * resolves with its output, its exit code and how long after that line it exited.
 */
async function runUntilExit(command: string, args: string[], options: { env: NodeJS.ProcessEnv; exitWithinMs: number; closeWhen: Promise<void> }) {
  const child = spawn(command, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  void options.closeWhen.then(() => child.stdin.end('close\n'));
  let stdout = '';
  let stderr = '';
  let reportedAt: number | undefined;
  let killer: NodeJS.Timeout | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (reportedAt === undefined && stdout.includes('\n')) {
      reportedAt = performance.now();
      // The bound on a child that does not exit by itself: the verdict is whether it exits at all (what could keep it
      // are waits of minutes, which a pause of the machine does not shorten).
      // real-time: a bound on a hung child only
      killer = setTimeout(() => child.kill('SIGKILL'), options.exitWithinMs + 5_000);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);
  if (reportedAt === undefined) throw new Error(`the child printed nothing (exit ${code}):\n${stderr}`);
  return { stdout, stderr, code, exitedAfterReportMs: performance.now() - reportedAt };
}

describe('a deadline that nobody else references holds, garbage collections or not', () => {
  it('ends every call of both clients on its AbortSignal.timeout while collections run (Node 20)', async () => {
    // Every request of the scope is read and never answered: only the signal can end the calls.
    const silent = suite.server.scope('gc-silent', (req) => void req.resume(), { warmed: false });
    const child = fileURLToPath(new URL('./support/gc-abort-child.ts', import.meta.url));
    const folder = await mkdtemp(join(suite.dir, 'gc-'));
    const input = { silent: { restUrl: silent.restUrl, soapUrl: silent.soapUrl }, pfx: suite.certificates.clientPfxPath, passphrase: suite.certificates.clientPfxPassword, ca: suite.certificates.caCertPem, folder };
    // The bound only ends a child whose calls never end (the defect): a deadline of 200 ms kept is done long before.
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', child], {
      env: { ...process.env, PAYKIT_CHILD_INPUT: JSON.stringify(input) },
      timeout: 100_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([
      'REST list: AbortedError TimeoutError',
      'REST downloadToFile: AbortedError TimeoutError',
      'REST delete: AbortedError TimeoutError',
      'SOAP downloadFiles: AbortedError TimeoutError',
    ]);
  }, 120_000);
});
