import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { startMock, type MockFixture } from './support/mock.js';

// paykit-files run in this process, with a standard error that says whether it is a terminal (the seam the bin fills
// with process.stderr): live progress is drawn on a terminal only, and --quiet silences all but errors.
let fx: MockFixture;
let dir: string;
beforeAll(async () => {
  fx = await startMock();
  dir = await mkdtemp(join(tmpdir(), 'paykit-files-progress-'));
});
afterAll(async () => {
  await fx?.close();
  await rm(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

async function run(args: string[], options: { tty: boolean; stdin?: Buffer }) {
  let stderr = '';
  let stdout = '';
  const code = await runCli(args, {
    stdin: () => Readable.from([options.stdin ?? Buffer.alloc(0)]),
    stdout: { write: (text: string) => (stdout += text) } as unknown as NodeJS.WritableStream,
    stderr: Object.assign({ write: (text: string) => (stderr += text) }, { isTTY: options.tty }) as unknown as NodeJS.WritableStream & { isTTY: boolean },
    env: {
      PAYKIT_FILES_BASE_URL: fx.mock.restUrl,
      PAYKIT_FILES_CERT_FILE: fx.certificates.clientPfxPath,
      PAYKIT_FILES_CERT_PASSWORD: fx.certificates.clientPfxPassword,
      PAYKIT_FILES_CA_FILE: fx.certificates.caCertPath,
      PAYKIT_FILES_LEDGER: join(dir, 'ledger.txt'),
    },
  });
  return { code, stdout, stderr };
}

describe('paykit-files progress on standard error', () => {
  it('draws the upload in place on a terminal (file, bytes, rate), then says it is done', async () => {
    const result = await run(['upload', 'PROGRESS_UP.bin', '--allow-unknown-size'], { tty: true, stdin: Buffer.alloc(3 * MiB, 1) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^\r\x1b\[Kuploading PROGRESS_UP\.bin: 1\.0 MiB of 3\.0 MiB/);
    expect(result.stderr).toMatch(/\r\x1b\[Kuploading PROGRESS_UP\.bin: 3\.0 MiB of 3\.0 MiB, [\d.]+ (B|KiB|MiB|GiB)\/s\r\x1b\[Kpaykit-files: uploaded PROGRESS_UP\.bin \(3\.0 MiB in [\d.]+ s\)\n$/);
  });

  it('draws each download on a terminal', async () => {
    fx.mock.store.enqueueDownload({ fileName: 'PROGRESS_DOWN.bin', content: Buffer.alloc(2 * MiB, 2) });
    const result = await run(['download', '--out', join(dir, 'inbox')], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\r\x1b\[Kdownloading PROGRESS_DOWN\.bin: 2\.0 MiB of 2\.0 MiB/);
    expect(result.stderr).toMatch(/\r\x1b\[Kpaykit-files: PROGRESS_DOWN\.bin processed and deleted\npaykit-files: 1 file\(s\) done, 0 failed\n$/);
  });

  it('draws nothing when standard error is not a terminal: a line at the start and one at the end', async () => {
    const result = await run(['upload', 'PROGRESS_PIPE.bin', '--allow-unknown-size'], { tty: false, stdin: Buffer.alloc(MiB, 3) });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: upload PROGRESS_PIPE\.bin started \(pid \d+\)\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ paykit-files: uploaded PROGRESS_PIPE\.bin \(1\.0 MiB in [\d.]+ s\)\n$/);
  });

  it('says nothing with --quiet, even on a terminal', async () => {
    const result = await run(['upload', 'PROGRESS_QUIET.bin', '--quiet', '--allow-unknown-size'], { tty: true, stdin: Buffer.alloc(MiB, 4) });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
