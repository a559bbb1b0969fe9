import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cliRunner, isRunning } from './support/cli-runner.js';
import { startMock, type MockFixture } from './support/mock.js';
import { startMtlsServer } from './support/mtls-server.js';

// The rows of the README's "CLI fault table", each against the built paykit-files and the stateful mock over TLS.
// Each test starts several processes: on a busy 2-core machine they need more than the default time.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });
let fx: MockFixture;
let dir: string;
const { environment, start, cli } = cliRunner(
  () => fx,
  () => dir,
);

beforeAll(async () => {
  fx = await startMock();
});
afterAll(async () => {
  await fx?.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-files-cron-'));
});
afterEach(async () => {
  const cleaner = await fx.client();
  for (const name of fx.mock.store.pendingDownloads()) await cleaner.delete(name);
  await rm(dir, { recursive: true, force: true });
});

const contentOf = (name: string) => Buffer.from(`content of ${name}\n`.repeat(100));
const enqueue = (...names: string[]) => {
  for (const fileName of names) fx.mock.store.enqueueDownload({ fileName, content: contentOf(fileName) });
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const waitForFile = (path: string) => vi.waitUntil(() => readFile(path, 'utf8').catch(() => undefined), { timeout: 60_000, interval: 50 });
/** The entries of live processes in the ledger's lock folder: none once a run has ended. */
const liveLockEntries = async () => (await readdir(join(dir, 'ledger.txt.lock')).catch(() => [])).filter((name) => /^(run|group)-/.test(name));
const ledgerNames = async () => (await readFile(join(dir, 'ledger.txt'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

/** A service with one file, SLOW.bin (10 000 bytes), sent 1000 bytes every `everyMs`. */
function startTrickleServer(everyMs: number) {
  return startMtlsServer(fx.certificates, (request, response) => {
    if (request.url?.endsWith('/filesForDownload/')) return void response.writeHead(200, { 'content-type': 'text/plain' }).end('SLOW.bin\n');
    if (request.method === 'DELETE') return void response.writeHead(204).end();
    response.writeHead(200, { 'content-length': '10000', 'content-type': 'application/octet-stream' });
    let sent = 0;
    const timer = setInterval(() => {
      if (response.destroyed) return clearInterval(timer);
      response.write(Buffer.alloc(1000));
      if ((sent += 1000) >= 10_000) {
        clearInterval(timer);
        response.end();
      }
    }, everyMs);
  });
}

describe('the processing command sees whole files only', () => {
  it('reads the complete downloaded file itself on standard input, with its size and SHA-256 in its environment', async () => {
    enqueue('WHOLE.csv');
    const seen = join(dir, 'seen');
    // [ -f /dev/stdin ]: standard input is a regular file (the download), not a pipe.
    const command = `{ [ -f /dev/stdin ] && echo file || echo pipe; echo "$PAYKIT_FILE_SIZE $PAYKIT_FILE_SHA256"; sha256sum | cut -d' ' -f1; } > "${seen}"`;
    const result = await cli(['download', '--exec', command]);
    expect(result.code, result.stderr).toBe(0);
    const content = contentOf('WHOLE.csv');
    expect((await readFile(seen, 'utf8')).split('\n')).toEqual(['file', `${content.length} ${sha256(content)}`, sha256(content), '']);
  });
});

describe('signals', () => {
  it('passes SIGTERM to the whole process group of the processing command and waits for it to end (exit 143, file queued)', async () => {
    enqueue('TRAP.csv');
    const started = join(dir, 'started');
    const ended = join(dir, 'ended');
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
    expect(fx.mock.store.pendingDownloads()).toEqual(['TRAP.csv']);
    expect(await ledgerNames()).toEqual(['TRAP.csv']);
    const again = join(dir, 'again');
    expect((await cli(['download', '--exec', `touch "${again}"`])).code).toBe(0);
    expect(existsSync(again)).toBe(false);
    expect(fx.mock.store.pendingDownloads()).toEqual([]);
  });

  it('keeps the file queued and out of the ledger when the command ends on the signal with a failure', async () => {
    enqueue('TRAP_FAIL.csv');
    const started = join(dir, 'started');
    const run = start(['download', '--exec', `trap 'exit 1' TERM; echo "$$" > "${started}"; while :; do sleep 0.1; done`]);
    await waitForFile(started);
    run.child.kill('SIGTERM');
    const result = await run.result;
    expect(result.code).toBe(143);
    expect(fx.mock.store.pendingDownloads()).toEqual(['TRAP_FAIL.csv']);
    expect(await ledgerNames()).toEqual([]);
    expect(await liveLockEntries()).toEqual([]);
  });

  it('exits 143 during the listing: the run is aborted, the lock released, nothing left behind', async () => {
    // A service that takes the list request and never answers it.
    const server = await startMtlsServer(fx.certificates, () => undefined);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: dir });
      const run = start(['download', '--exec', 'cat > /dev/null'], { env });
      await vi.waitUntil(() => server.seen.some((request) => request.url.endsWith('/filesForDownload/')), { timeout: 60_000, interval: 50 });
      run.child.kill('SIGTERM');
      const result = await run.result;
      expect(result.code).toBe(143);
      expect(result.stderr).toMatch(/download stopped by SIGTERM: processAll aborted: paykit-files received SIGTERM/);
      expect(server.seen.filter((request) => request.method === 'DELETE')).toEqual([]);
      expect((await readdir(dir)).filter((name) => name.startsWith('~'))).toEqual([]);
      expect(await liveLockEntries()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 143 during an upload body: nothing stored, the spool removed', async () => {
    // The upload's body arrives at a service that reads it, but standard input stops half way and never ends.
    const server = await startMtlsServer(fx.certificates);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: dir });
      async function* halfAPipe() {
        yield Buffer.alloc(50_000, 1);
        await new Promise(() => undefined);
      }
      const run = start(['upload', 'HALF.bin', '--size', '100000'], { env, stdin: halfAPipe() });
      await vi.waitUntil(() => server.seen.some((request) => request.method === 'POST'), { timeout: 60_000, interval: 50 });
      await vi.waitUntil(async () => (await readdir(dir)).some((name) => name.startsWith('~paykit-upload-')), { timeout: 60_000, interval: 50 });
      run.child.kill('SIGTERM');
      const result = await run.result;
      expect(result.code).toBe(143);
      expect(result.stderr).toMatch(/upload stopped by SIGTERM: uploadFile HALF\.bin aborted/);
      expect((await readdir(dir)).filter((name) => name.startsWith('~'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 143 in the wait between tries once the pipe has ended: what it gave is kept, and the printed command sends it', async () => {
    const server = await startMtlsServer(fx.certificates, (_, response) => response.writeHead(500).end());
    const content = Buffer.from('a report that cannot be made again\n'.repeat(3000));
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: dir, PAYKIT_FILES_RETRY_INTERVAL: '60', PAYKIT_FILES_RETRY_FOR: '600' });
      const run = start(['upload', 'KEPT_SIGNAL.csv', '--size', String(content.length)], { env, stdin: content });
      await vi.waitUntil(() => run.stderr().includes('Try 1 failed'), { timeout: 60_000, interval: 50 });
      run.child.kill('SIGTERM');
      const result = await run.result;
      expect(result.code).toBe(143);
      expect(result.stderr).toMatch(/upload stopped by SIGTERM: uploadFile KEPT_SIGNAL\.csv aborted/);
      await expectKeptAndSendable(result.stderr, 'KEPT_SIGNAL.csv', content);
    } finally {
      await server.close();
    }
  });

  it('exits 143 during a transfer: the processing command never starts, nothing is left behind', async () => {
    const server = await startTrickleServer(1000);
    const started = join(dir, 'started');
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, TMPDIR: dir });
      const run = start(['download', '--exec', `echo started > "${started}"`, '--log-interval', '0.2'], { env });
      await vi.waitUntil(() => run.stderr().includes('downloading SLOW.bin'), { timeout: 60_000, interval: 50 });
      run.child.kill('SIGHUP');
      const result = await run.result;
      expect(result.code).toBe(129);
      expect(result.stderr).toMatch(/download stopped by SIGHUP: processAll SLOW\.bin aborted/);
      expect(await liveLockEntries()).toEqual([]);
      expect(existsSync(started)).toBe(false);
      expect((await readdir(dir)).filter((name) => name.startsWith('~'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('exits 143 at once during a retry wait, leaving the file queued', async () => {
    enqueue('WAIT.csv');
    fx.mock.store.failNext('download', { status: 500 });
    const run = start(['download', '--exec', 'cat > /dev/null'], { env: environment({ PAYKIT_FILES_RETRY_INTERVAL: '60', PAYKIT_FILES_RETRY_FOR: '600' }) });
    await vi.waitUntil(() => run.stderr().includes('Try 1 failed'), { timeout: 60_000, interval: 50 });
    run.child.kill('SIGTERM');
    expect((await run.result).code).toBe(143);
    expect(fx.mock.store.pendingDownloads()).toEqual(['WAIT.csv']);
  });
});

/**
 * The failure's report names where what standard input gave is kept, and the command that sends it; that command,
 * run as printed against the service, uploads exactly the content, after which the folder is the operator's to remove.
 */
async function expectKeptAndSendable(stderr: string, name: string, content: Buffer) {
  const said = /kept in (\S+)\. Send it with: paykit-files upload (\S+) < (\S+), then remove its folder: rm -r (\S+)\n/.exec(stderr);
  expect(said, stderr).not.toBeNull();
  const [, path, sentName, sentPath, folder] = said!;
  expect([sentName, sentPath, folder]).toEqual([name, path, dirname(path!)]);
  expect(dirname(folder!)).toBe(dir);
  expect((await readFile(path!)).equals(content)).toBe(true);
  // Only the kept folder is left of the run: no temporary file, no lock.
  expect((await readdir(dir)).filter((entry) => entry.startsWith('~') || entry.startsWith('paykit-unsent-'))).toEqual([basename(folder!)]);
  const resent = await cli(['upload', name], { stdinFile: path! });
  expect(resent.code, resent.stderr).toBe(0);
  expect(fx.mock.store.uploads().filter((upload) => upload.fileName === name).map((upload) => upload.content.equals(content))).toEqual([true]);
}

describe('an upload from a pipe that fails for good keeps what the pipe gave', () => {
  it.each([
    { how: 'with --size (sent as read)', size: true },
    { how: 'without --size (read to its end first)', size: false },
  ])('refused (403), $how: exit 1, the content kept, and the printed command sends it', async ({ size }) => {
    const name = `KEPT_REFUSED_${size ? 'SIZED' : 'UNSIZED'}.csv`;
    const content = Buffer.from(`${name}: a report that cannot be made again\n`.repeat(3000));
    fx.mock.store.failNext('upload', { status: 403 });
    const result = await cli(['upload', name, ...(size ? ['--size', String(content.length)] : [])], { env: environment({ TMPDIR: dir }), stdin: content });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/AccessRefusedError/);
    await expectKeptAndSendable(result.stderr, name, content);
  });
});

describe('a processing command that fails or is killed', () => {
  it.each([
    { title: 'exits 1', command: 'cat > /dev/null; exit 1', reason: /exited with status 1/ },
    { title: 'is killed (SIGKILL from outside)', command: 'cat > /dev/null; kill -KILL $$', reason: /was killed by SIGKILL/ },
  ])('$title: exit 3, the file stays queued and out of the ledger', async ({ command, reason }) => {
    enqueue('FAILS.csv');
    const result = await cli(['download', '--exec', command]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(reason);
    expect(fx.mock.store.pendingDownloads()).toEqual(['FAILS.csv']);
    expect(await ledgerNames()).toEqual([]);
  });
});

describe('one run at a time per ledger', () => {
  it('refuses a second download at once with exit 75; with --wait-lock it waits, then runs', async () => {
    enqueue('FIRST.csv');
    const started = join(dir, 'started');
    const release = join(dir, 'release');
    const first = start(['download', '--exec', `cat > /dev/null; echo go > "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done`]);
    try {
      await waitForFile(started);
      const second = await cli(['download', '--exec', 'cat > /dev/null']);
      expect(second.code).toBe(75);
      expect(second.stderr).toMatch(/Another run \(pid \d+\) is processing the ledger .*ledger\.txt; this one stops without doing anything/);
      const waiting = start(['download', '--exec', 'cat > /dev/null', '--wait-lock', '60']);
      await vi.waitUntil(() => waiting.stderr().includes('waiting up to 60 s'), { timeout: 60_000, interval: 50 });
      await writeFile(release, '');
      expect((await first.result).code).toBe(0);
      expect((await waiting.result).code).toBe(0);
    } finally {
      await writeFile(release, '');
    }
  });

  it('is not blocked by a run killed with SIGKILL once its processing command has ended, and leaves that command its file meanwhile', async () => {
    enqueue('ORPHAN.csv');
    const started = join(dir, 'started');
    const release = join(dir, 'release');
    const command = `echo "$PAYKIT_FILE_PATH" > "${started}"; while [ ! -f "${release}" ]; do sleep 0.05; done; cat > /dev/null`;
    const killed = start(['download', '--exec', command], { env: environment({ TMPDIR: dir }) });
    try {
      const path = (await waitForFile(started)).trim();
      killed.child.kill('SIGKILL');
      // 'exit', not the end of its output: the processing command still holds the standard error it inherited.
      await once(killed.child, 'exit');
      // The processing command lives on in its own process group: the next run waits for it, and never removes its file.
      const refused = await cli(['download', '--exec', 'cat > /dev/null'], { env: environment({ TMPDIR: dir }) });
      expect(refused.code).toBe(75);
      expect(refused.stderr).toMatch(/Another run \(a processing command, process group \d+ of a run that was killed\)/);
      expect(existsSync(path)).toBe(true);
    } finally {
      await writeFile(release, '');
    }
    const next = await cli(['download', '--exec', 'cat > /dev/null', '--wait-lock', '30'], { env: environment({ TMPDIR: dir }) });
    expect(next.code, next.stderr).toBe(0);
    expect(fx.mock.store.pendingDownloads()).toEqual([]);
    // The killed run's folder went once nothing used it any more.
    expect((await readdir(dir)).filter((name) => name.startsWith('~'))).toEqual([]);
  });
});

describe('logs for cron (standard error not a terminal)', () => {
  it('says what is going on at least every --log-interval: a retry wait, a processing command', async () => {
    enqueue('LOG.csv');
    fx.mock.store.failNext('download', { status: 500 });
    const env = environment({ PAYKIT_FILES_RETRY_INTERVAL: '1', PAYKIT_FILES_RETRY_FOR: '30' });
    const result = await cli(['download', '--exec', 'cat > /dev/null; sleep 1', '--log-interval', '0.2'], { env });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/^paykit-files: download started \(pid \d+\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^paykit-files: waiting to try downloadFile LOG\.csv again at \d\d:\d\d:\d\d \(try 2\) \(\d+ m?s so far\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^paykit-files: processing command for LOG\.csv running \(\d+ m?s so far\)$/));
    expect(lines.at(-2)).toBe('paykit-files: 1 file(s) done, 0 failed');
  });

  it('writes the progress of a long transfer as a line, not a redrawn one', async () => {
    const server = await startTrickleServer(100);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` });
      const result = await cli(['download', '--out', join(dir, 'inbox'), '--log-interval', '0.25'], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/\npaykit-files: downloading SLOW\.bin: [\d.]+ (B|KiB) of 9\.8 KiB, [\d.]+ \w+\/s \(\d+ m?s so far\)\n/);
      expect(result.stderr).not.toContain('\r');
    } finally {
      await server.close();
    }
  });
});

describe('uploads that are probably a mistake', () => {
  it.each([
    { title: 'an empty pipe', args: [], input: { stdin: '' }, message: /Standard input is empty: nothing to upload.*--allow-empty/ },
    { title: 'an empty pipe with --size 0', args: ['--size', '0'], input: { stdin: '' }, message: /Standard input is empty/ },
    { title: 'an empty file', args: [], input: { stdinFile: 'empty' }, message: /Standard input is empty/ },
    { title: 'a directory', args: [], input: { stdinFile: '.' }, message: /Standard input is a directory/ },
  ])('refuses $title with exit 2, sending nothing', async ({ args, input, message }) => {
    await writeFile(join(dir, 'empty'), '');
    const options = 'stdinFile' in input ? { stdinFile: join(dir, input.stdinFile!) } : input;
    const result = await cli(['upload', 'MISTAKE.csv', ...args], options);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fx.mock.store.uploads().filter((upload) => upload.fileName === 'MISTAKE.csv')).toEqual([]);
  });

  it('sends an empty pipe with --allow-empty', async () => {
    const result = await cli(['upload', 'EMPTY_OK.csv', '--allow-empty'], { stdin: '' });
    expect(result.code, result.stderr).toBe(0);
    expect(fx.mock.store.uploads().filter((upload) => upload.fileName === 'EMPTY_OK.csv').map((upload) => upload.content.length)).toEqual([0]);
  });
});

describe("an operator's resend under a name already processed", () => {
  it('is deleted unprocessed and said so by default; --reprocess NAME processes it', async () => {
    await writeFile(join(dir, 'ledger.txt'), 'RESENT.csv\n');
    const handled = join(dir, 'handled');
    const command = `cat > /dev/null; echo "$PAYKIT_FILE_NAME" >> "${handled}"`;
    enqueue('RESENT.csv');
    const byDefault = await cli(['download', '--exec', command]);
    expect(byDefault.code).toBe(0);
    expect(byDefault.stderr).toMatch(/RESENT\.csv is in the ledger .*ledger\.txt as processed already: deleted from the queue without processing it again .*--reprocess RESENT\.csv/);
    expect(existsSync(handled)).toBe(false);
    enqueue('RESENT.csv');
    const again = await cli(['download', '--exec', command, '--reprocess', 'RESENT.csv']);
    expect(again.code).toBe(0);
    expect(await readFile(handled, 'utf8')).toBe('RESENT.csv\n');
    expect(fx.mock.store.pendingDownloads()).toEqual([]);
  });
});

describe('messages', () => {
  it.each([
    {
      title: 'a temporary folder that cannot be made (mkdtemp) is named, with what to change',
      args: ['download', '--exec', 'cat'],
      env: () => environment({ TMPDIR: '/nonexistent-paykit' }),
      code: 1,
      stderr: /download stopped: cannot make a temporary folder in \/nonexistent-paykit: set TMPDIR \(or, for download, --out\) to a folder that exists and can be written \(ENOENT: no such file or directory\)\./,
    },
    {
      title: 'bidi controls in an argument are escaped',
      args: ['upload', 'invoice\u202Efdp.exe'],
      env: () => environment(),
      code: 2,
      stderr: /Invalid file name "invoice\\u\{202e\}fdp\.exe"/,
    },
    { title: 'a stall timeout of 0 is refused', args: ['list', '--stall-timeout', '0'], env: () => environment(), code: 2, stderr: /--stall-timeout must be a number of seconds greater than 0/ },
  ])('$title', async ({ args, env, code, stderr }) => {
    const result = await cli(args, { env: env(), stdin: 'x' });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(stderr);
    expect(result.stderr).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  it('--stall-timeout turns a server that never answers into a network failure', async () => {
    const server = await startMtlsServer(fx.certificates, () => undefined);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, PAYKIT_FILES_RETRY_FOR: '0' });
      const result = await cli(['list', '--stall-timeout', '0.3'], { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/listFilesForDownload.*(ETIMEDOUT|timed out|no progress)/);
    } finally {
      await server.close();
    }
  });
});

