// end-to-end: a paykit-mock process (it makes its RSA certificates as it starts) and paykit-files processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { createFileExchangeClient, FileLedger, type FileExchangeClient } from '@paykit/file-exchange';
import { createFileExchangeSoapClient } from '@paykit/file-exchange-soap';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PrintedOutput } from './support/printed-output.js';

// The stateful mock as merchants run it, a separate `paykit-mock` process, driven by our clients from outside.
// Its start makes RSA keys (seconds on a loaded 2-core machine); each paykit-files run is a Node process.
vi.setConfig({ hookTimeout: 60_000, testTimeout: 30_000 });

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const paykitMock = join(packageDir('@paykit/mock-server'), 'dist/cli.js');
const paykitFiles = join(packageDir('@paykit/file-exchange'), 'dist/cli/main.js');

let cwd: string;
let inbox: string;
let mockProcess: ChildProcess;
let printed: PrintedOutput;
let restUrl: string;
let soapUrl: string;
let client: FileExchangeClient;
const certs = () => join(cwd, '.paykit', 'certs');
let passphrase: string;
const tls = () => ({ pfx: join(certs(), 'client.pfx'), passphrase, ca: join(certs(), 'ca.pem') });

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'paykit-mock-process-'));
  inbox = join(cwd, 'inbox');
  mockProcess = spawn(
    process.execPath,
    [paykitMock, 'file-exchange-stateful', '--port-file-exchange-stateful=0', '--port-file-exchange-stateful-soap=0', '--inbox', inbox],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  printed = new PrintedOutput(mockProcess);
  await printed.until('mocks ready');
  restUrl = /file-exchange-stateful mock: (\S+)/.exec(printed.text)![1]!;
  soapUrl = /SOAP: (\S+)\/UploadFile/.exec(printed.text)![1]!;
  passphrase = await readFile(join(certs(), 'client.pfx.password'), 'utf8');
  client = await createFileExchangeClient({ baseUrl: restUrl, tls: tls(), retry: false });
});
afterAll(async () => {
  await client?.close();
  if (mockProcess && mockProcess.exitCode === null) {
    const exited = new Promise((resolve) => mockProcess.once('exit', resolve));
    mockProcess.kill('SIGTERM');
    await exited;
  }
  await rm(cwd, { recursive: true, force: true });
});

/**
 * Drops a file into the inbox as a job would (written under a dot name, then renamed into place), and waits until
 * the other process, which scans its inbox on its own clock, says it queued the file.
 */
async function drop(name: string, content: string): Promise<void> {
  await writeFile(join(inbox, `.${name}`), content);
  await rename(join(inbox, `.${name}`), join(inbox, name));
  await printed.until(`file-exchange-stateful inbox: queued ${name} for download`);
}

describe('paykit-mock file-exchange-stateful --inbox, with our clients', () => {
  it('REST: a dropped file is listed, downloaded and deleted by @paykit/file-exchange', async () => {
    await drop('STATEMENT_20260115_001.xml', '<statement/>');
    expect(await client.list()).toEqual(['STATEMENT_20260115_001.xml']);
    const handled: Record<string, string> = {};
    const report = await client.processAll(
      async (file) => {
        handled[file.name] = await readFile(file.path, 'utf8');
      },
      { workDir: cwd, ledger: new FileLedger(join(cwd, 'ledger.txt')) },
    );
    expect(report.failed).toEqual([]);
    expect(handled).toEqual({ 'STATEMENT_20260115_001.xml': '<statement/>' });
    expect(await client.list()).toEqual([]);
  });

  it('SOAP: a dropped file comes once through @paykit/file-exchange-soap downloadAll', async () => {
    await drop('STATEMENT_20260115_002.xml', '<statement n="2"/>');
    const soap = await createFileExchangeSoapClient({ baseUrl: soapUrl, tls: tls(), retry: false });
    try {
      const files = [];
      for await (const file of soap.downloadAll('PAYKIT-TEST-QUEUE')) files.push([file.fileName, Buffer.from(file.fileContent).toString()]);
      expect(files).toEqual([['STATEMENT_20260115_002.xml', '<statement n="2"/>']]);
    } finally {
      await soap.close();
    }
  });
});

// The mock answers an upload without Content-Length with 411: each of these succeeding shows the length was sent.
describe('uploads to the stateful mock always carry Content-Length', () => {
  const sources: Array<[string, () => Parameters<FileExchangeClient['upload']>[1], { contentLength?: number }]> = [
    ['bytes', () => Buffer.from('bytes'), {}],
    ['empty bytes', () => Buffer.alloc(0), {}],
    ['a stream of unknown length', () => Readable.from([Buffer.from('one,'), Buffer.from('two')]), {}],
    ['a stream with its length given', () => Readable.from([Buffer.from('one,'), Buffer.from('two')]), { contentLength: 7 }],
  ];

  it.each(sources)('@paykit/file-exchange upload from %s gets 202', async (label, content, options) => {
    const name = `length_${label.replaceAll(' ', '_')}.bin`;
    await expect(client.upload(name, content(), options)).resolves.toBeUndefined();
  });

  it.each([
    ['with --size', ['--size', '9']],
    // Without --size the CLI refuses a pipe unless told to take whatever it gives (a dead writer's truncated output).
    ['without --size', ['--allow-unknown-size']],
  ])('paykit-files upload from a pipe %s gets 202', async (label, extra) => {
    const child = spawn(process.execPath, [paykitFiles, 'upload', `piped_${label.replaceAll(/\W+/g, '_')}.txt`, '--quiet', ...extra], {
      env: {
        ...process.env,
        PAYKIT_FILES_BASE_URL: restUrl,
        PAYKIT_FILES_CERT_FILE: join(certs(), 'client.pfx'),
        PAYKIT_FILES_CERT_PASSWORD_FILE: join(certs(), 'client.pfx.password'),
        PAYKIT_FILES_CA_FILE: join(certs(), 'ca.pem'),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin!.write('piped,');
    child.stdin!.end('abc');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(0);
  });
});
