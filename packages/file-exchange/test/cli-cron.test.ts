import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { smallDiskAvailable, smallDiskNote, withSmallDisk } from '@paykit/test-support';
import { cliSuite } from './support/cli-runner.js';
import { expectKeptAndSendable } from './support/kept-content.js';
import { startMtlsServer } from './support/mtls-server.js';

// The rows of the README's "CLI fault table" that need no process of their own, each against paykit-files run in
// this process (runCli) and the stateful mock over TLS; the signal, SIGKILL and lock rows are in
// cli-processes.test.ts.
const suite = cliSuite('paykit-files-cron-');
const { environment, cli, run, contentOf, enqueue, ledgerNames, startTrickleServer } = suite;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the processing command sees whole files only', () => {
  it('reads the complete downloaded file itself on standard input, with its size and SHA-256 in its environment', async () => {
    enqueue('WHOLE.csv');
    const seen = join(suite.dir, 'seen');
    // [ -f /dev/stdin ]: standard input is a regular file (the download), not a pipe.
    const command = `{ [ -f /dev/stdin ] && echo file || echo pipe; echo "$PAYKIT_FILE_SIZE $PAYKIT_FILE_SHA256"; sha256sum | cut -d' ' -f1; } > "${seen}"`;
    const result = await cli(['download', '--exec', command]);
    expect(result.code, result.stderr).toBe(0);
    const content = contentOf('WHOLE.csv');
    expect((await readFile(seen, 'utf8')).split('\n')).toEqual(['file', `${content.length} ${sha256(content)}`, sha256(content), '']);
  });
});

describe('an upload from a pipe that fails for good keeps what the pipe gave', () => {
  it.each([
    { how: 'with --size (sent as read)', size: true },
    { how: 'without --size (read to its end first)', size: false },
  ])('refused (403), $how: exit 1, the content kept, and the printed command sends it', async ({ size }) => {
    const name = `KEPT_REFUSED_${size ? 'SIZED' : 'UNSIZED'}.csv`;
    const content = Buffer.from(`${name}: a report that cannot be made again\n`.repeat(3000));
    suite.fx.mock.store.failNext('upload', { status: 403 });
    const result = await cli(['upload', name, ...(size ? ['--size', String(content.length)] : ['--allow-unknown-size'])], { env: environment({ TMPDIR: suite.dir }), stdin: content });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/AccessRefusedError/);
    await expectKeptAndSendable(suite, result.stderr, name, content);
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
    expect(suite.fx.mock.store.pendingDownloads()).toEqual(['FAILS.csv']);
    expect(await ledgerNames()).toEqual([]);
  });
});

describe('logs for cron (standard error not a terminal)', () => {
  it('says what is going on at least every --log-interval: a retry wait, a processing command', async () => {
    enqueue('LOG.csv');
    suite.fx.mock.store.failNext('download', { status: 500 });
    const env = environment({ PAYKIT_FILES_RETRY_INTERVAL: '1', PAYKIT_FILES_RETRY_FOR: '30' });
    const result = await cli(['download', '--exec', 'cat > /dev/null; sleep 1', '--log-interval', '0.2'], { env });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: download started \(pid \d+\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: waiting to try downloadFile LOG\.csv again at \d\d:\d\d:\d\d \(try 2\) \(\d+ m?s so far\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: processing command for LOG\.csv running \(\d+ m?s so far\)$/));
    expect(lines.at(-2)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: 1 file\(s\) done, 0 failed$/);
  });

  it('writes the progress of a long transfer as a line, not a redrawn one', async () => {
    const server = await startTrickleServer(100);
    try {
      const env = environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` });
      const result = await cli(['download', '--out', join(suite.dir, 'inbox'), '--log-interval', '0.25'], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: downloading SLOW\.bin: [\d.]+ (B|KiB) of 9\.8 KiB, [\d.]+ \w+\/s \(\d+ m?s so far\)\n/);
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
    await writeFile(join(suite.dir, 'empty'), '');
    const options = 'stdinFile' in input ? { stdinFile: join(suite.dir, input.stdinFile!) } : input;
    const result = await cli(['upload', 'MISTAKE.csv', ...args], options);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(suite.fx.mock.store.uploads().filter((upload) => upload.fileName === 'MISTAKE.csv')).toEqual([]);
  });

  it('sends an empty pipe with --allow-empty', async () => {
    const result = await cli(['upload', 'EMPTY_OK.csv', '--allow-empty'], { stdin: '' });
    expect(result.code, result.stderr).toBe(0);
    expect(suite.fx.mock.store.uploads().filter((upload) => upload.fileName === 'EMPTY_OK.csv').map((upload) => upload.content.length)).toEqual([0]);
  });
});

describe.skipIf(!smallDiskAvailable)(`a full TMPDIR under an upload from a pipe, ${smallDiskNote}`, () => {
  it.each([
    { how: 'with --size (sent as it is read)', size: true },
    { how: 'without --size (read to its end first)', size: false },
  ])('$how: exit 1 at once with LocalFileError naming the folder, no retry, nothing kept', async ({ size }) => {
    const server = await startMtlsServer(suite.fx.certificates, (_, response) => response.writeHead(202).end());
    const content = Buffer.alloc(16 * 1024 * 1024, 9);
    async function* pipe() {
      for (let offset = 0; offset < content.length; offset += 1024 * 1024) yield content.subarray(offset, offset + 1024 * 1024);
    }
    try {
      await withSmallDisk(8, async (disk) => {
        const result = await cli(['upload', 'FULL_TMP.bin', ...(size ? ['--size', String(content.length)] : ['--allow-unknown-size'])], {
          stdin: pipe(),
          env: environment({ TMPDIR: disk, PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` }),
        });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toContain(`LocalFileError: uploadFile: the temporary copy of the upload's stream in ${disk} could not be written`);
        expect(result.stderr).toMatch(/ENOSPC/);
        expect(result.stderr).not.toMatch(/Try \d failed|kept in/);
        // Sent as it was read: the one request, never completed; read to its end first: no request at all.
        expect(server.seen.filter((request) => request.method === 'POST')).toHaveLength(size ? 1 : 0);
        expect(await readdir(disk)).toEqual([]);
      });
    } finally {
      await server.close();
    }
  });
});

describe("an operator's resend under a name already processed", () => {
  it('is deleted unprocessed and said so by default; --reprocess NAME processes it', async () => {
    await writeFile(join(suite.dir, 'ledger.txt'), 'RESENT.csv\n');
    const handled = join(suite.dir, 'handled');
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
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
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
    const server = await startMtlsServer(suite.fx.certificates, () => undefined);
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

describe('what cron sees', () => {
  it('log lines carry their date and time (UTC), from the clock the CLI is given', async () => {
    enqueue('DATED.csv');
    const at = Date.UTC(2026, 10, 28, 14, 5, 0);
    const result = await run(['download', '--exec', 'cat > /dev/null'], { now: () => at }).result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^2026-11-28T14:05:00Z paykit-files: download started \(pid \d+\)$/),
      '2026-11-28T14:05:00Z paykit-files: DATED.csv processed and deleted',
      '2026-11-28T14:05:00Z paykit-files: 1 file(s) done, 0 failed',
    ]);
  });

  it('--log-format json writes one object a line: time, level, message', async () => {
    enqueue('JSON.csv');
    const result = await cli(['download', '--exec', 'cat > /dev/null', '--log-format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines.map(({ level, message }) => ({ level, message }))).toEqual([
      { level: 'info', message: expect.stringMatching(/^download started \(pid \d+\)$/) },
      { level: 'info', message: 'JSON.csv processed and deleted' },
      { level: 'info', message: '1 file(s) done, 0 failed' },
    ]);
    for (const { time } of lines) expect(new Date(time!).toISOString()).toBe(time);
  });

  it('a run with nothing to do writes nothing (cron mails whatever a job writes)', async () => {
    const result = await cli(['download', '--exec', 'cat > /dev/null']);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await cli(['list'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('--version prints the version', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `paykit-files ${version}\n`, stderr: '' });
  });

  it('refuses a pipe without --size (a writer that died half way would send a truncated file with exit 0), unless asked', async () => {
    const refused = await cli(['upload', 'UNSIZED.csv'], { stdin: 'half a report' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Standard input is a pipe and --size was not given.*--size BYTES.*--allow-unknown-size/s);
    expect(suite.fx.mock.store.uploads().filter((upload) => upload.fileName === 'UNSIZED.csv')).toEqual([]);
    expect((await cli(['upload', 'UNSIZED.csv', '--allow-unknown-size'], { stdin: 'half a report' })).code).toBe(0);
  });

  it.each([
    { format: 'text', args: [], type: 'text/html', body: '<html><body>Please log in</body></html>', error: /UnexpectedResponseError: listFilesForDownload: the answer is text\/html, not text\/plain/ },
    { format: 'xml', args: ['--xml'], type: 'text/html', body: '<html/>', error: /UnexpectedResponseError: listFilesForDownload: the answer is text\/html, not application\/xml/ },
    { format: 'xml, a document of another kind', args: ['--xml'], type: 'application/xml', body: '<html><body/></html>', error: /ProtocolError: listFilesForDownload: the XML answer holds no downloadFileList element/ },
  ])('a 200 that is not a list ($format): exit 1, not names or an empty queue', async ({ args, type, body, error }) => {
    const server = await startMtlsServer(suite.fx.certificates, (_, response) => response.writeHead(200, { 'content-type': type }).end(body));
    try {
      const result = await cli(['list', ...args], { env: environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` }) });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(error);
    } finally {
      await server.close();
    }
  });

  describe('the client certificate near or past its end', () => {
    let pem: { cert: string; key: string; notAfter: number };
    beforeAll(async () => {
      const made = await mkdtemp(join(tmpdir(), 'paykit-short-cert-'));
      const cert = join(made, 'short.pem');
      const key = join(made, 'short-key.pem');
      // A certificate the mock does not know (another issuer: it answers 403), valid for 10 more days.
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '10', '-subj', '/CN=short-lived', '-keyout', key, '-out', cert], { stdio: 'ignore' });
      const notAfter = Date.parse(execFileSync('openssl', ['x509', '-in', cert, '-noout', '-enddate'], { encoding: 'utf8' }).trim().replace(/^notAfter=/, ''));
      pem = { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8'), notAfter };
      await rm(made, { recursive: true, force: true });
    });
    const withPem = async () => {
      await writeFile(join(suite.dir, 'c.pem'), pem.cert);
      await writeFile(join(suite.dir, 'k.pem'), pem.key);
      return environment({ PAYKIT_FILES_CERT_FILE: join(suite.dir, 'c.pem'), PAYKIT_FILES_KEY_FILE: join(suite.dir, 'k.pem'), PAYKIT_FILES_CERT_PASSWORD: '' });
    };

    it('warns from 30 days out, on every run, even with --quiet', async () => {
      const result = await cli(['list', '--quiet'], { env: await withPem() });
      expect(result.stderr).toMatch(/paykit-files: the client certificate expires on \d{4}-\d\d-\d\d \(in (9|10) day\(s\)\): ask the operator for a new one before then\./);
    });

    it('names an expired certificate in the 403 it causes (the service does not say why)', async () => {
      const result = await run(['list'], { env: await withPem(), now: () => pem.notAfter + 86_400_000 }).result;
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/AccessRefusedError: .*403.* The client certificate expired on \d{4}-\d\d-\d\d: ask the operator for a new one\./);
    });
  });
});
