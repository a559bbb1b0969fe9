// end-to-end: killed processes. Each test runs the built paykit-files in a process of its own (and its processing
// commands in process groups of their own) to send it a signal or SIGKILL, or to have a second process hold the run
// lock: what only a real process shows. Everything else of the CLI is tested in process (cli.test.ts,
// cli-cron.test.ts). A node process starts in about a second on a loaded 2-core machine, several per test.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaultLedgerPathFor } from '../src/index.js';
import { bin, cliSuite, isRunning } from './support/cli-runner.js';
import { expectKeptAndSendable } from './support/kept-content.js';
import { startMtlsServer } from './support/mtls-server.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
const suite = cliSuite('paykit-files-processes-');
const { environment, start, cli, contentOf, enqueue, ledgerNames, startTrickleServer } = suite;

const waitForFile = (path: string) => vi.waitUntil(() => readFile(path, 'utf8').catch(() => undefined), { timeout: 30_000, interval: 50 });
/** The entries of live processes in the ledger's lock folder: none once a run has ended. */
const liveLockEntries = async () => (await readdir(join(suite.dir, 'ledger.txt.lock')).catch(() => [])).filter((name) => /^(run|group)-/.test(name));

describe('paykit-files download stopped by a signal', () => {
  it.each([
    { signal: 'SIGTERM' as const, code: 143 },
    { signal: 'SIGINT' as const, code: 130 },
  ])('removes its temporary files, stops the processing command and exits $code on $signal', async ({ signal, code }) => {
    enqueue('SLOW.csv');
    const inbox = join(suite.dir, 'inbox');
    const marker = join(suite.dir, 'marker');
    // The command notes its process id and the downloaded file's path, then waits to be stopped.
    const command = `echo "$$ $PAYKIT_FILE_PATH" > "${marker}.tmp" && mv "${marker}.tmp" "${marker}" && exec sleep 30`;
    const child = spawn(process.execPath, [bin, 'download', '--out', inbox, '--exec', command], { env: environment({ TMPDIR: suite.dir }), cwd: suite.dir });
    const [commandPid, workPath] = await vi.waitUntil(() => readFile(marker, 'utf8').then((text) => text.trim().split(' '), () => undefined), { timeout: 20_000, interval: 50 });
    expect(existsSync(workPath!)).toBe(true);
    child.kill(signal);
    const [exitCode] = (await once(child, 'exit')) as [number | null];
    expect(exitCode).toBe(code);
    expect(existsSync(dirname(workPath!))).toBe(false);
    expect((await readdir(inbox)).filter((name) => name.startsWith('~'))).toEqual([]);
    await vi.waitUntil(() => !isRunning(Number(commandPid)), { timeout: 5_000, interval: 50 });
    // Stopped before the delete: the file is still queued, for the next run.
    expect(suite.fx.mock.store.pendingDownloads()).toEqual(['SLOW.csv']);
  });

});

describe('signals to paykit-files download and upload', () => {
  it('passes SIGTERM to the whole process group of the processing command and waits for it to end (exit 143, file queued)', async () => {
    enqueue('TRAP.csv');
    const started = join(suite.dir, 'started');
    const ended = join(suite.dir, 'ended');
    // The command starts a child of its own, then ends in its own time after the signal reaches it.
    const command = `sleep 60 & echo $! > "${started}.child"; trap 'sleep 0.5; echo done > "${ended}"; exit 0' TERM; echo "$$" > "${started}"; while :; do sleep 0.1; done`;
    const run = start(['download', '--exec', command]);
    const [group] = (await waitForFile(started)).trim().split(' ');
    const grandchild = Number((await readFile(`${started}.child`, 'utf8')).trim());
    run.child.kill('SIGTERM');
    const result = await run.result;
    expect(result.code).toBe(143);
    // The CLI exited after the command had finished what its trap does, and the command's own child got the signal.
    expect(await readFile(ended, 'utf8')).toBe('done\n');
    expect(isRunning(Number(group))).toBe(false);
    await vi.waitUntil(() => !isRunning(grandchild), { timeout: 5_000, interval: 50 });
    // Its status 0 says it processed the file: recorded before the exit, not deleted (the run was stopped); the next
    // run deletes it without handing it over again.
    expect(result.stderr).toMatch(/download stopped by SIGTERM/);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual(['TRAP.csv']);
    expect(await ledgerNames()).toEqual(['TRAP.csv']);
    const again = join(suite.dir, 'again');
    expect((await cli(['download', '--exec', `touch "${again}"`])).code).toBe(0);
    expect(existsSync(again)).toBe(false);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
  });

  it('keeps the file queued and out of the ledger when the command ends on the signal with a failure', async () => {
    enqueue('TRAP_FAIL.csv');
    const started = join(suite.dir, 'started');
    const run = start(['download', '--exec', `trap 'exit 1' TERM; echo "$$" > "${started}"; while :; do sleep 0.1; done`]);
    await waitForFile(started);
    run.child.kill('SIGTERM');
    const result = await run.result;
    expect(result.code).toBe(143);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual(['TRAP_FAIL.csv']);
    expect(await ledgerNames()).toEqual([]);
    expect(await liveLockEntries()).toEqual([]);
  });

  it('exits 143 during the listing: the run is aborted, the lock released, nothing left behind', async () => {
    // A service that takes the list request and never answers it.
    const server = await startMtlsServer(suite.fx.certificates, () => undefined);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: suite.dir });
      const run = start(['download', '--exec', 'cat > /dev/null'], { env });
      await vi.waitUntil(() => server.seen.some((request) => request.url.endsWith('/filesForDownload/')), { timeout: 30_000, interval: 50 });
      run.child.kill('SIGTERM');
      const result = await run.result;
      expect(result.code).toBe(143);
      expect(result.stderr).toMatch(/download stopped by SIGTERM: processAll aborted: paykit-files received SIGTERM/);
      expect(server.seen.filter((request) => request.method === 'DELETE')).toEqual([]);
      expect((await readdir(suite.dir)).filter((name) => name.startsWith('~'))).toEqual([]);
      expect(await liveLockEntries()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 143 during an upload body: nothing stored, the spool removed', async () => {
    // The upload's body arrives at a service that reads it, but standard input stops half way and never ends.
    const server = await startMtlsServer(suite.fx.certificates);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: suite.dir });
      async function* halfAPipe() {
        yield Buffer.alloc(50_000, 1);
        await new Promise(() => undefined);
      }
      const run = start(['upload', 'HALF.bin', '--size', '100000'], { env, stdin: halfAPipe() });
      await vi.waitUntil(() => server.seen.some((request) => request.method === 'POST'), { timeout: 30_000, interval: 50 });
      await vi.waitUntil(async () => (await readdir(suite.dir)).some((name) => name.startsWith('~paykit-upload-')), { timeout: 30_000, interval: 50 });
      run.child.kill('SIGTERM');
      const result = await run.result;
      expect(result.code).toBe(143);
      expect(result.stderr).toMatch(/upload stopped by SIGTERM: uploadFile HALF\.bin aborted/);
      expect((await readdir(suite.dir)).filter((name) => name.startsWith('~'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 143 in the wait between tries once the pipe has ended: what it gave is kept, and the printed command sends it', async () => {
    const server = await startMtlsServer(suite.fx.certificates, (_, response) => response.writeHead(500).end());
    const content = Buffer.from('a report that cannot be made again\n'.repeat(3000));
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: suite.dir, PAYKIT_FILES_RETRY_INTERVAL: '60', PAYKIT_FILES_RETRY_FOR: '600' });
      const run = start(['upload', 'KEPT_SIGNAL.csv', '--size', String(content.length)], { env, stdin: content });
      await vi.waitUntil(() => run.stderr().includes('Try 1 failed'), { timeout: 30_000, interval: 50 });
      run.child.kill('SIGTERM');
      const result = await run.result;
      expect(result.code).toBe(143);
      expect(result.stderr).toMatch(/upload stopped by SIGTERM: uploadFile KEPT_SIGNAL\.csv aborted/);
      await expectKeptAndSendable(suite, result.stderr, 'KEPT_SIGNAL.csv', content);
    } finally {
      await server.close();
    }
  });

  it('exits 143 during a transfer: the processing command never starts, nothing is left behind', async () => {
    const server = await startTrickleServer(1000);
    const started = join(suite.dir, 'started');
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: suite.dir });
      const run = start(['download', '--exec', `echo started > "${started}"`, '--log-interval', '0.2'], { env });
      await vi.waitUntil(() => run.stderr().includes('downloading SLOW.bin'), { timeout: 30_000, interval: 50 });
      run.child.kill('SIGHUP');
      const result = await run.result;
      expect(result.code).toBe(129);
      expect(result.stderr).toMatch(/download stopped by SIGHUP: processAll SLOW\.bin aborted/);
      expect(await liveLockEntries()).toEqual([]);
      expect(existsSync(started)).toBe(false);
      expect((await readdir(suite.dir)).filter((name) => name.startsWith('~'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 143 at once during a retry wait, leaving the file queued', async () => {
    enqueue('WAIT.csv');
    suite.fx.mock.store.failNext('download', { status: 500 });
    const run = start(['download', '--exec', 'cat > /dev/null'], { env: environment({ PAYKIT_FILES_RETRY_INTERVAL: '60', PAYKIT_FILES_RETRY_FOR: '600' }) });
    await vi.waitUntil(() => run.stderr().includes('Try 1 failed'), { timeout: 30_000, interval: 50 });
    run.child.kill('SIGTERM');
    expect((await run.result).code).toBe(143);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual(['WAIT.csv']);
  });
});

describe('one run at a time per ledger', () => {
  it('refuses a second download at once with exit 75; with --wait-lock it waits, then runs', async () => {
    enqueue('FIRST.csv');
    const started = join(suite.dir, 'started');
    const release = join(suite.dir, 'release');
    const first = start(['download', '--exec', `cat > /dev/null; echo go > "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done`]);
    try {
      await waitForFile(started);
      const second = await cli(['download', '--exec', 'cat > /dev/null']);
      expect(second.code).toBe(75);
      expect(second.stderr).toMatch(/Another run \(pid \d+\) is processing the ledger .*ledger\.txt; this one stops without doing anything/);
      const waiting = start(['download', '--exec', 'cat > /dev/null', '--wait-lock', '60']);
      await vi.waitUntil(() => waiting.stderr().includes('waiting up to 60 s'), { timeout: 30_000, interval: 50 });
      await writeFile(release, '');
      expect((await first.result).code).toBe(0);
      expect((await waiting.result).code).toBe(0);
    } finally {
      await writeFile(release, '');
    }
  });

  it('is not blocked by a run killed with SIGKILL once its processing command has ended, and leaves that command its file meanwhile', async () => {
    enqueue('ORPHAN.csv');
    const started = join(suite.dir, 'started');
    const release = join(suite.dir, 'release');
    const command = `echo "$PAYKIT_FILE_PATH" > "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done; cat > /dev/null`;
    const killed = start(['download', '--exec', command], { env: environment({ TMPDIR: suite.dir }) });
    try {
      const path = (await waitForFile(started)).trim();
      killed.child.kill('SIGKILL');
      // 'exit', not the end of its output: the processing command still holds the standard error it inherited.
      await once(killed.child, 'exit');
      // The processing command lives on in its own process group: the next run waits for it, and never removes its file.
      const refused = await cli(['download', '--exec', 'cat > /dev/null'], { env: environment({ TMPDIR: suite.dir }) });
      expect(refused.code).toBe(75);
      expect(refused.stderr).toMatch(/Another run \(a processing command, process group \d+ of a run that was killed\)/);
      expect(existsSync(path)).toBe(true);
    } finally {
      await writeFile(release, '');
    }
    const next = await cli(['download', '--exec', 'cat > /dev/null', '--wait-lock', '30'], { env: environment({ TMPDIR: suite.dir }) });
    expect(next.code, next.stderr).toBe(0);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
    // The killed run's folder went once nothing used it any more.
    expect((await readdir(suite.dir)).filter((name) => name.startsWith('~'))).toEqual([]);
  });
});

describe('a processing command that outlives its run', () => {
  it('finishing with exit 0 after its run was killed (SIGKILL): the next run records its file, never hands it over again', async () => {
    enqueue('OUTLIVED.csv');
    const handled = join(suite.dir, 'handled');
    const started = join(suite.dir, 'started');
    const release = join(suite.dir, 'release');
    const command = `cat > /dev/null; echo go > "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done; echo "$PAYKIT_FILE_NAME" >> "${handled}"`;
    const env = environment({ TMPDIR: suite.dir });
    const killed = start(['download', '--exec', command], { env });
    await waitForFile(started);
    killed.child.kill('SIGKILL');
    await once(killed.child, 'exit');
    await writeFile(release, '');
    const next = await cli(['download', '--exec', command, '--wait-lock', '30'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(await readFile(handled, 'utf8')).toBe('OUTLIVED.csv\n');
    expect(await ledgerNames()).toEqual(['OUTLIVED.csv']);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
    expect((await readdir(suite.dir)).filter((name) => name.startsWith('~'))).toEqual([]);
  });
});

describe('runs from two working folders', () => {
  it("share the service's ledger and lock for the user: a second run from another folder exits 75, no file handled twice", async () => {
    enqueue('TWICE_A.csv', 'TWICE_B.csv');
    const home = join(suite.dir, 'home');
    const [cron, manual] = [join(suite.dir, 'cron'), join(suite.dir, 'manual')];
    await Promise.all([mkdir(cron), mkdir(manual)]);
    // No ledger given: the default, once a file under the working folder (a run elsewhere had its own, and its own lock).
    const env = environment({ PAYKIT_FILES_LEDGER: '', HOME: home });
    const handled = join(suite.dir, 'handled');
    const started = join(suite.dir, 'started');
    const release = join(suite.dir, 'release');
    const command = `cat > /dev/null; echo "$PAYKIT_FILE_NAME" >> "${handled}"; echo go > "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done`;
    const first = start(['download', '--exec', command], { env, spawn: { cwd: cron } });
    try {
      await waitForFile(started);
      const second = await start(['download', '--exec', command], { env, spawn: { cwd: manual } }).result;
      expect(second.code, second.stderr).toBe(75);
      expect(second.stderr).toContain(defaultLedgerPathFor(suite.fx.mock.restUrl, { HOME: home }));
    } finally {
      await writeFile(release, '');
    }
    expect((await first.result).code).toBe(0);
    expect((await readFile(handled, 'utf8')).split('\n').filter(Boolean).sort()).toEqual(['TWICE_A.csv', 'TWICE_B.csv']);
    expect(await readFile(defaultLedgerPathFor(suite.fx.mock.restUrl, { HOME: home }), 'utf8')).toBe('TWICE_A.csv\nTWICE_B.csv\n');
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
  });
});

describe('paykit-files list | head -1', () => {
  it('stops quietly when its reader has read enough: no EPIPE stack, exit 0', async () => {
    // More than a pipe holds (64 KiB), so that writing goes on after `head` has gone.
    const names = Array.from({ length: 1000 }, (_, i) => `MANY_${String(i).padStart(4, '0')}_${'x'.repeat(200)}.csv`);
    const server = await startMtlsServer(suite.fx.certificates, (_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end(names.join('\n')));
    // --quiet: what remains on standard error is what went wrong.
    const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` });
    const child = spawn('/bin/sh', ['-c', `"${process.execPath}" "${bin}" list --quiet | head -1`], { env, cwd: suite.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await once(child, 'close');
    await server.close();
    expect(stdout.split('\n')[0]).toBe(names[0]);
    expect(stderr).toBe('');
  });
});
