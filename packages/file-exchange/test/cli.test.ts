import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMtlsServer } from './support/mtls-server.js';
import { cliSuite } from './support/cli-runner.js';

const suite = cliSuite('paykit-files-cli-');
const { environment, cli, run, contentOf, enqueue } = suite;

/** The process id of a process that has exited (so, free unless the system reuses it at once). */
async function exitedProcessId(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

/** A loopback HTTPS server with the test CA's client-certificate check, whose upload answers the test writes. */
async function startUploadServer(
  handle: (request: IncomingMessage, response: ServerResponse, attempt: number) => void,
): Promise<{ origin: string; close(): Promise<void> }> {
  let attempts = 0;
  const server = createHttpsServer(
    {
      key: await readFile(suite.fx.certificates.serverKeyPath),
      cert: await readFile(suite.fx.certificates.serverCertPath),
      ca: await readFile(suite.fx.certificates.caCertPath),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (request, response) => handle(request, response, ++attempts),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('paykit-files upload', () => {
  it('sends standard input under the given name', async () => {
    const content = Buffer.from('id,amount\n1,100\n'.repeat(1000));
    const result = await cli(['upload', 'CLI_UPLOAD_001.csv', '--content-type', 'text/csv', '--allow-unknown-size'], { stdin: content });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain('uploaded CLI_UPLOAD_001.csv');
    expect(suite.fx.mock.store.uploads().filter((u) => u.fileName === 'CLI_UPLOAD_001.csv')).toEqual([
      expect.objectContaining({ content, mimeType: 'text/csv', via: 'rest' }),
    ]);
  });

  it('reads a file redirected to standard input in place: no temporary copy is made', async () => {
    const content = Buffer.from('id,amount\n2,200\n'.repeat(5000));
    const source = join(suite.dir, 'redirected.csv');
    await writeFile(source, content);
    // No temporary folder exists: a copy of standard input would fail.
    const result = await cli(['upload', 'CLI_REDIRECT_001.csv'], { stdinFile: source, env: environment({ TMPDIR: join(suite.dir, 'absent') }) });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(suite.fx.mock.store.uploads().filter((u) => u.fileName === 'CLI_REDIRECT_001.csv').map((u) => u.content.equals(content))).toEqual([true]);
  });

  it.each([
    { title: 'with --size: sent as it is read', extra: ['--size', '16'] },
    { title: 'without --size: read to its end first', extra: ['--allow-unknown-size'] },
  ])('uploads a pipe $title', async ({ extra }) => {
    const name = `CLI_PIPE_${extra.length}.csv`;
    const result = await cli(['upload', name, ...extra], { stdin: 'sixteen bytes!!\n' });
    expect(result.code).toBe(0);
    expect(suite.fx.mock.store.uploads().filter((u) => u.fileName === name).map((u) => u.content.toString())).toEqual(['sixteen bytes!!\n']);
  });

  it.each([
    // The rest of standard input arrives only after the first try was lost: the resend must wait for it.
    { title: 'sent as it is read (--size)', extra: (length: number) => ['--size', String(length)], restAfterLoss: true },
    { title: 'read to its end first', extra: () => ['--allow-unknown-size'], restAfterLoss: false },
  ])('resends a pipe $title complete from its spool when the connection drops part-way', async ({ extra, restAfterLoss }) => {
    const content = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < content.length; i += 4) content.writeUInt32LE(i, i);
    const received: Buffer[] = [];
    let firstTryLost!: () => void;
    const lost = new Promise<void>((resolve) => (firstTryLost = resolve));
    let secondTryArrived!: () => void;
    const secondTry = new Promise<void>((resolve) => (secondTryArrived = resolve));
    const server = await startUploadServer((request, response, attempt) => {
      if (attempt === 2) secondTryArrived();
      const pieces: Buffer[] = [];
      let bytes = 0;
      request.on('data', (piece: Buffer) => {
        pieces.push(piece);
        bytes += piece.length;
        // The first try loses its connection once a part of the file has arrived.
        if (attempt === 1 && bytes >= 1024 * 1024 && !request.socket.destroyed) {
          request.socket.destroy();
          firstTryLost();
        }
      });
      request.on('end', () => {
        received.push(Buffer.concat(pieces));
        response.writeHead(202, { 'content-length': '0' }).end();
      });
      request.on('close', () => {
        if (!request.complete) received.push(Buffer.concat(pieces));
      });
    });
    const half = content.length / 2;
    async function* standardInput(): AsyncGenerator<Buffer> {
      yield content.subarray(0, half);
      if (restAfterLoss) {
        // The resend is under way (its request reached the server) while the pipe has not given the rest yet.
        await lost;
        await secondTry;
      }
      yield content.subarray(half);
    }
    const spoolParent = join(suite.dir, 'spool');
    await mkdir(spoolParent);
    try {
      const result = await cli(['upload', 'CLI_RESENT.bin', ...extra(content.length)], {
        stdin: standardInput(),
        env: environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest`, PAYKIT_FILES_RETRY_FOR: '5', TMPDIR: spoolParent }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/uploadFile CLI_RESENT\.bin: .*Try 1 failed/);
      expect(received).toHaveLength(2);
      expect(received[0]!.length).toBeGreaterThan(0);
      expect(received[0]!.length).toBeLessThan(content.length);
      expect(received[1]!.equals(content)).toBe(true);
      // The spool is gone once the upload is over.
      expect(await readdir(spoolParent)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('takes a pipe (--size) whose writer pauses past the stall timeout for a stall: retried, the resend completes from the spool', async () => {
    const content = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < content.length; i += 4) content.writeUInt32LE(i, i);
    const firstPart = 1024 * 1024;
    const received: Array<{ attempt: number; bytes: number; complete: boolean; equal: boolean }> = [];
    let firstPartSent!: () => void;
    const sent = new Promise<void>((resolve) => (firstPartSent = resolve));
    const server = await startUploadServer((request, response, attempt) => {
      const pieces: Buffer[] = [];
      let bytes = 0;
      request.on('data', (piece: Buffer) => {
        pieces.push(piece);
        bytes += piece.length;
        if (bytes >= firstPart) firstPartSent();
      });
      request.on('end', () => {
        received.push({ attempt, bytes, complete: true, equal: Buffer.concat(pieces).equals(content) });
        response.writeHead(202, { 'content-length': '0' }).end();
      });
      request.on('close', () => {
        if (!request.complete) received.push({ attempt, bytes, complete: false, equal: false });
      });
    });
    // Once the first part is at the server, the pipe gives nothing more until the CLI has taken the idle connection
    // for a stall (its retry line says so): an idle connection is what the CLI cannot tell from a stalled network.
    let stalled!: () => boolean;
    async function* standardInput(): AsyncGenerator<Buffer> {
      yield content.subarray(0, firstPart);
      await sent;
      await expect.poll(stalled, { timeout: 4_000, interval: 20 }).toBe(true);
      yield content.subarray(firstPart);
    }
    try {
      const running = run(['upload', 'CLI_PAUSED_PIPE.bin', '--size', String(content.length), '--stall-timeout', '0.5'], {
        stdin: standardInput(),
        env: environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` }),
      });
      stalled = () => /uploadFile CLI_PAUSED_PIPE\.bin: .*stalled.*Try 1 failed/.test(running.stderr());
      const result = await running.result;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/uploadFile CLI_PAUSED_PIPE\.bin: .*Try 1 failed/);
      // The first try stalled in the pause and ended short of the last byte, so the service keeps nothing of it.
      // A resend made while the pause went on follows the spool and waits for the pipe too, so it may stall as well;
      // and on a loaded machine a try may even count as stalled after its last byte (the kernel's socket buffers
      // emptying into a slow server look like silence: see the fault table). Whatever the count, every try that
      // reached its end carried exactly the pipe, and the last one did.
      const tries = received.sort((a, b) => a.attempt - b.attempt);
      expect(tries[0]).toMatchObject({ attempt: 1, complete: false });
      expect(tries[0]!.bytes).toBeLessThan(content.length);
      for (const done of tries.filter((one) => one.complete)) expect(done).toMatchObject({ bytes: content.length, equal: true });
      expect(tries.at(-1)).toEqual({ attempt: tries.length, bytes: content.length, complete: true, equal: true });
    } finally {
      await server.close();
    }
  });

  it('refuses a pipe shorter than --size with exit 2, and the service keeps nothing', async () => {
    const result = await cli(['upload', 'CLI_PIPE_SHORT.csv', '--size', '100'], { stdin: 'only this' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/gave only 9 bytes where 100 were announced/);
    expect(suite.fx.mock.store.uploads().filter((u) => u.fileName === 'CLI_PIPE_SHORT.csv')).toEqual([]);
  });

  it('works with a PEM certificate and key given as options', async () => {
    const env = environment({ PAYKIT_FILES_CERT_FILE: '', PAYKIT_FILES_CERT_PASSWORD: '' });
    const result = await cli(['upload', 'CLI_PEM_001.txt', '--cert', suite.fx.certificates.clientCertPath, '--key', suite.fx.certificates.clientKeyPath, '--allow-unknown-size'], { stdin: 'pem', env });
    expect(result.code).toBe(0);
    expect(suite.fx.mock.store.uploads().some((u) => u.fileName === 'CLI_PEM_001.txt')).toBe(true);
  });

  it('reads the certificate password from a file', async () => {
    const passwordFile = join(suite.dir, 'password');
    await writeFile(passwordFile, `${suite.fx.certificates.clientPfxPassword}\n`, { mode: 0o600 });
    const env = environment({ PAYKIT_FILES_CERT_PASSWORD: '' });
    const result = await cli(['upload', 'CLI_PWFILE_001.txt', '--cert-password-file', passwordFile, '--allow-unknown-size'], { stdin: 'x', env });
    expect(result.code).toBe(0);
  });
});

describe('paykit-files retry lines', () => {
  it('says what failed and when the next try is, also when standard error is not a terminal', async () => {
    suite.fx.mock.store.failNext('upload', { status: 500 });
    // A window long enough for a slow first try on a busy machine; only one failure is queued.
    const result = await cli(['upload', 'CLI_RETRY_001.csv', '--allow-unknown-size'], { stdin: 'x', env: environment({ PAYKIT_FILES_RETRY_FOR: '30' }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: upload CLI_RETRY_001\.csv started \(pid \d+\)\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: uploadFile CLI_RETRY_001\.csv: the service answered 500 \(internal error\)\. Try 1 failed; next try at \d\d:\d\d:\d\d \(in 20 ms\), retrying until \d\d:\d\d:\d\d\.\n/,
    );
    expect(result.stderr).not.toContain('\r');
  });

  it('says nothing with --quiet', async () => {
    suite.fx.mock.store.failNext('upload', { status: 500 });
    const result = await cli(['upload', 'CLI_RETRY_002.csv', '--quiet', '--allow-unknown-size'], { stdin: 'x', env: environment({ PAYKIT_FILES_RETRY_FOR: '30' }) });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('paykit-files list', () => {
  it.each([[[]], [['--xml']]])('prints the names, one per line %j', async (extra) => {
    enqueue('B.csv', 'A.csv');
    const result = await cli(['list', ...extra]);
    expect(result).toMatchObject({ code: 0, stdout: 'A.csv\nB.csv\n' });
  });
});

describe('paykit-files list with names that are not file names', () => {
  it('escapes control characters and backslashes, and says so on standard error', async () => {
    const names = ['A.csv', 'nul\u0000byte', 'esc\u001b[31mred', 'back\\slash', 'caf\u00e9', 'tab\there'];
    const server = await startMtlsServer(suite.fx.certificates, (_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end(names.join('\n')));
    try {
      const result = await cli(['list'], { env: environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` }) });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(['A.csv', 'nul\\x00byte', 'esc\\x1b[31mred', 'back\\x5cslash', 'caf\\u{e9}', 'tab\\x09here', ''].join('\n'));
      expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\uffff]/u);
      expect(result.stderr).toMatch(/5 names from the service are not valid file names \(printed with escapes\)/);
    } finally {
      await server.close();
    }
  });
});

describe('paykit-files download', () => {
  it('runs the processing command for each file with its content on stdin, then deletes it', async () => {
    enqueue('A.csv', 'B.csv');
    const out = join(suite.dir, 'processed');
    const command = `mkdir -p "${out}" && cat > "${out}/$PAYKIT_FILE_NAME" && test -f "$PAYKIT_FILE_PATH"`;
    const result = await cli(['download', '--exec', command]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('2 file(s) done, 0 failed');
    expect((await readdir(out)).sort()).toEqual(['A.csv', 'B.csv']);
    expect(await readFile(join(out, 'A.csv'), 'utf8')).toBe(contentOf('A.csv').toString());
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
  });

  it('saves into a folder with --out', async () => {
    enqueue('REPORT_1.xml');
    const result = await cli(['download', '--out', join(suite.dir, 'inbox')]);
    expect(result.code).toBe(0);
    expect(await readdir(join(suite.dir, 'inbox'))).toEqual(['REPORT_1.xml']);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
  });

  it('keeps a saved file named X.partial when X arrives later (temporary names cannot be service names)', async () => {
    const inbox = join(suite.dir, 'inbox');
    enqueue('REPORT.xml.partial');
    expect((await cli(['download', '--out', inbox])).code).toBe(0);
    enqueue('REPORT.xml');
    expect((await cli(['download', '--out', inbox])).code).toBe(0);
    expect((await readdir(inbox)).sort()).toEqual(['REPORT.xml', 'REPORT.xml.partial']);
    expect(await readFile(join(inbox, 'REPORT.xml.partial'), 'utf8')).toBe(contentOf('REPORT.xml.partial').toString());
    expect(await readFile(join(inbox, 'REPORT.xml'), 'utf8')).toBe(contentOf('REPORT.xml').toString());
  });

  it('carries on after a name too long for the local file system, and still prints the summary', async () => {
    const long = `${'L'.repeat(300)}.csv`;
    enqueue('A.csv', long, 'C.csv');
    const result = await cli(['download', '--out', join(suite.dir, 'inbox')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`${long} failed at handler and stays in the queue: .*ENAMETOOLONG`));
    expect(result.stderr).toContain('2 file(s) done, 1 failed');
    expect((await readdir(join(suite.dir, 'inbox'))).sort()).toEqual(['A.csv', 'C.csv']);
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([long]);
  });

  it('exits 3 and keeps a file whose processing failed, naming it on stderr', async () => {
    enqueue('A.csv', 'BAD.csv', 'C.csv');
    const result = await cli(['download', '--exec', 'cat > /dev/null; test "$PAYKIT_FILE_NAME" != BAD.csv']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/BAD\.csv failed at handler and stays in the queue: processing command exited with status 1/);
    expect(result.stderr).toContain('2 file(s) done, 1 failed');
    expect(suite.fx.mock.store.pendingDownloads()).toEqual(['BAD.csv']);
    // The next run, with the problem fixed, finishes the queue without touching the files already done.
    const again = await cli(['download', '--exec', 'cat > /dev/null; echo "handled $PAYKIT_FILE_NAME"']);
    expect(again).toMatchObject({ code: 0, stdout: 'handled BAD.csv\n' });
    expect(suite.fx.mock.store.pendingDownloads()).toEqual([]);
  });
});

describe('paykit-files download after a killed run', () => {
  it('removes, on the next run, what a killed run (SIGKILL) left, and only that', async () => {
    const inbox = join(suite.dir, 'inbox');
    await mkdir(inbox);
    const deadPid = await exitedProcessId();
    const left = [`~paykit-download-${deadPid}-a1b2c3`, `~paykit-saving-${deadPid}-d4e5f6a7`];
    const running = `~paykit-download-${process.pid}-g7h8i9`;
    await mkdir(join(inbox, left[0]!));
    await writeFile(join(inbox, left[0]!, 'A.csv'), 'half');
    await writeFile(join(inbox, left[1]!), 'half');
    await mkdir(join(inbox, running));
    enqueue('A.csv');
    expect((await cli(['download', '--out', inbox])).code).toBe(0);
    expect((await readdir(inbox)).sort()).toEqual(['A.csv', running]);
  });
});

describe('failures', () => {
  const cases: Array<{ title: string; args: string[] | (() => string[]); env?: () => NodeJS.ProcessEnv; code: number; stderr: RegExp; before?: () => void }> = [
    { title: 'no command', args: [], code: 2, stderr: /usage: paykit-files/ },
    { title: 'an unknown command', args: ['send'], code: 2, stderr: /unknown command "send"/ },
    { title: 'an unknown option', args: ['list', '--verbose'], code: 2, stderr: /Unknown option '--verbose'/ },
    { title: 'download without a way to process', args: ['download'], code: 2, stderr: /needs --exec CMD and\/or --out DIR/ },
    { title: 'upload without a name', args: ['upload'], code: 2, stderr: /exactly one file name/ },
    { title: 'an invalid file name', args: ['upload', 'bad name.csv'], code: 2, stderr: /Invalid file name "bad name\.csv"/ },
    { title: 'no base address', args: ['list'], env: () => environment({ PAYKIT_FILES_BASE_URL: '' }), code: 2, stderr: /--base-url or PAYKIT_FILES_BASE_URL/ },
    { title: 'no certificate', args: ['list'], env: () => environment({ PAYKIT_FILES_CERT_FILE: '' }), code: 2, stderr: /needs the client certificate/ },
    { title: 'a base address that is not a URL', args: ['list'], env: () => environment({ PAYKIT_FILES_BASE_URL: 'files.example/services' }), code: 2, stderr: /--base-url must be an absolute address/ },
    { title: 'a base address that is not https', args: ['list'], env: () => environment({ PAYKIT_FILES_BASE_URL: 'ftp://127.0.0.1/services/messaging/rest' }), code: 2, stderr: /must use https:\/\// },
    { title: 'plain http to another machine', args: ['list'], env: () => environment({ PAYKIT_FILES_BASE_URL: 'http://files.example/services/messaging/rest' }), code: 2, stderr: /http:\/\/ only for a mock on this machine/ },
    {
      title: 'a PEM certificate without its key',
      args: ['list'],
      env: () => environment({ PAYKIT_FILES_CERT_FILE: suite.fx.certificates.clientCertPath, PAYKIT_FILES_CERT_PASSWORD: '' }),
      code: 2,
      stderr: /client\.pem holds no private key.*--key/,
    },
    { title: 'no password for the PKCS12 file', args: ['list'], env: () => environment({ PAYKIT_FILES_CERT_PASSWORD: '' }), code: 2, stderr: /needs its password/ },
    { title: 'a wrong password', args: ['list'], env: () => environment({ PAYKIT_FILES_CERT_PASSWORD: 'Cwrong-password-42' }), code: 2, stderr: /password does not open the PKCS12 file/ },
    { title: 'a short retry interval given badly', args: ['list', '--retry-interval', 'soon'], code: 2, stderr: /--retry-interval must be a number of seconds/ },
    {
      // The mock's 403 for a foreign certificate is final: with the reference's 5-minute retry wait, one retry would
      // outlast the test.
      title: 'a client certificate from another CA',
      args: () => ['download', '--out', join(suite.dir, 'inbox')],
      before: () => enqueue('KEPT_FOREIGN.txt'),
      env: () =>
        environment({
          PAYKIT_FILES_CERT_FILE: suite.fx.certificates.foreignClientPfxPath,
          PAYKIT_FILES_CERT_PASSWORD: suite.fx.certificates.foreignClientPfxPassword,
          PAYKIT_FILES_RETRY_INTERVAL: '300',
          PAYKIT_FILES_RETRY_FOR: '14400',
        }),
      code: 1,
      stderr: /^(?![\s\S]*retry)[\s\S]*AccessRefusedError: .*403/,
    },
    { title: 'access refused by the service', args: ['list'], before: () => suite.fx.mock.store.failNext('list', { status: 403 }), code: 1, stderr: /AccessRefusedError: .*403/ },
    {
      title: 'a service that stays unreachable',
      args: ['upload', 'CLI_FAILING.csv', '--allow-unknown-size'],
      // A window of 0 gives up at the first failure, whatever the machine's speed.
      env: () => environment({ PAYKIT_FILES_BASE_URL: 'https://127.0.0.1:1/services/messaging/rest', PAYKIT_FILES_RETRY_FOR: '0' }),
      code: 1,
      stderr: /RetriesExhaustedError: uploadFile CLI_FAILING\.csv still failing after \d+ tries.*ECONNREFUSED/,
    },
  ];
  it('a listing longer than the reference allows (1001 names) -> exit 1 with ProtocolError, nothing downloaded', async () => {
    const names = Array.from({ length: 1001 }, (_, i) => `F_${i}.csv`).join('\n');
    const requests: string[] = [];
    const server = await startUploadServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/plain' }).end(names);
    });
    try {
      const result = await cli(['download', '--out', join(suite.dir, 'inbox')], { env: environment({ PAYKIT_FILES_BASE_URL: `${server.origin}/services/messaging/rest` }) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/ProtocolError: /);
      expect(requests).toEqual(['GET /services/messaging/rest/filesForDownload/']);
    } finally {
      await server.close();
    }
  });

  it.each(cases)('$title -> exit $code', async ({ args, env, code, stderr, before }) => {
    before?.();
    const result = await cli(typeof args === 'function' ? args() : args, { env: env?.() ?? environment(), stdin: 'x' });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(stderr);
    expect(result.stderr + result.stdout).not.toContain(suite.fx.certificates.clientPfxPassword);
    expect(result.stderr + result.stdout).not.toContain('Cwrong-password-42');
    expect(result.stderr).not.toMatch(/legacy algorithm/);
  });
});
