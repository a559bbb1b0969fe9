import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  InvalidRequestError,
  RetriesExhaustedError,
  AccessRefusedError,
  SoapFaultError,
  TransientFailureError,
  type UploadContent,
  type UploadFile,
} from '../src/index.js';
import { fastRetry, startMock, type MockFixture } from './support/mock.js';

let fixture: MockFixture;
beforeAll(async () => {
  fixture = await startMock();
});
afterAll(async () => fixture?.close());

const uploadsSoFar = () => fixture.mock.store.uploads().length;
let sequence = 0;
const nextId = (label: string) => `${label}-${++sequence}`;

describe('uploadFile', () => {
  const accepted: Array<[string, Omit<UploadFile, 'fileID'>]> = [
    ['content only (every other field is optional)', { fileContent: Buffer.from('only content') }],
    ['an empty file (an empty xs:base64Binary)', { fileName: 'empty.txt', fileContent: new Uint8Array(0) }],
    ['binary bytes of every value', { fileContent: Uint8Array.from({ length: 256 }, (_, i) => i) }],
    ['a Uint8Array view into a larger buffer', { fileContent: new Uint8Array(Buffer.from('xxPAYLOADxx').buffer, 2, 7) }],
    ['content over several base64 slices (200 KiB)', { fileContent: randomBytes(200 * 1024 + 1) }],
    [
      'every field, markup characters and parameters',
      {
        fileType: 'PAYMENTS<&>',
        mimeType: 'text/csv',
        fileName: 'batch_2026-11-21.001.csv',
        parameter: [
          { name: 'region', value: 'a & b < c' },
          { name: 'note', value: 'line one\r\nline two' },
        ],
        fileContent: Buffer.from('a,b\n1,2\n'),
      },
    ],
  ];

  it.each(accepted)('sends %s, and the mock stores exactly those bytes and fields', async (_name, file) => {
    const client = await fixture.client();
    const fileID = nextId('upload');
    await client.uploadFile({ fileID, ...file });
    const stored = fixture.mock.store.uploads().find((u) => u.fileID === fileID);
    expect(stored?.via).toBe('soap');
    expect(Buffer.compare(stored!.content, Buffer.from(file.fileContent))).toBe(0);
    expect(stored?.fileName).toBe(file.fileName);
    expect(stored?.fileType).toBe(file.fileType);
    expect(stored?.mimeType).toBe(file.mimeType);
  });

  const rejected: Array<[string, unknown, string]> = [
    ['no fileContent', { fileName: 'a.txt' }, 'uploadFile.fileContent: is required'],
    // A string is a file's path, never base64 text: one that names no file is refused as such.
    ['fileContent as a string that is no file', { fileContent: 'aGVsbG8=' }, 'uploadFile.fileContent: Cannot read the upload content file aGVsbG8='],
    ['a file name with a space', { fileName: 'my file.txt', fileContent: Buffer.from('x') }, 'uploadFile.fileName: "my file.txt" does not match the pattern (FileName)'],
    ['a file name with a slash', { fileName: '../etc/passwd', fileContent: Buffer.from('x') }, 'does not match the pattern'],
    ['an empty file name', { fileName: '', fileContent: Buffer.from('x') }, 'does not match the pattern'],
    ['a misspelt field', { fileId: 'x', fileContent: Buffer.from('x') }, 'uploadFile.fileId: is not a field of UploadedFile'],
    ['a parameter without value', { parameter: [{ name: 'a' }], fileContent: Buffer.from('x') }, 'uploadFile.parameter[0].value: is required'],
    ['parameter not given as an array', { parameter: { name: 'a', value: 'b' }, fileContent: Buffer.from('x') }, 'uploadFile.parameter: must be an array'],
    ['a control character XML cannot carry', { fileType: 'bad\u0001type', fileContent: Buffer.from('x') }, 'U+0001'],
    ['a number where text is expected', { mimeType: 42, fileContent: Buffer.from('x') }, 'uploadFile.mimeType: must be a string'],
  ];

  it.each(rejected)('refuses %s with InvalidRequestError before sending anything', async (_name, file, message) => {
    const client = await fixture.client();
    const before = uploadsSoFar();
    const error = await client.uploadFile(file as UploadFile).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toContain(message);
    expect(uploadsSoFar()).toBe(before);
  });

  it('resends after a dropped connection when the file has a fileID, and the service keeps one copy', async () => {
    const client = await fixture.client();
    const fileID = nextId('resend');
    fixture.mock.store.failNext('soap-upload', { dropConnection: true });
    await client.uploadFile({ fileID, fileName: `${fileID}.txt`, fileContent: Buffer.from('once') });
    expect(fixture.mock.store.uploads().filter((u) => u.fileID === fileID)).toHaveLength(1);
  });

  it('resends after an HTTP 500 fault when the file has a fileID', async () => {
    const retries: string[] = [];
    const client = await fixture.client({ retry: { ...fastRetry, intervalMs: 1, onRetry: ({ failure }) => retries.push(failure.name) } });
    const fileID = nextId('fault');
    fixture.mock.store.failNext('soap-upload', { status: 500 });
    await client.uploadFile({ fileID, fileContent: Buffer.from('after a fault') });
    expect(retries).toEqual(['SoapFaultError']);
    expect(fixture.mock.store.uploads().filter((u) => u.fileID === fileID)).toHaveLength(1);
  });

  it('does not resend a file without fileID (a resend could duplicate it) and reports the network error', async () => {
    const client = await fixture.client();
    fixture.mock.store.failNext('soap-upload', { dropConnection: true });
    const error = await client.uploadFile({ fileName: 'no-id.txt', fileContent: Buffer.from('x') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientFailureError);
    expect((error as TransientFailureError).retryable).toBe(true);
  });

  it('turns an injected 403 into AccessRefusedError', async () => {
    const client = await fixture.client();
    fixture.mock.store.failNext('soap-upload', { status: 403 });
    await expect(client.uploadFile({ fileID: nextId('denied'), fileContent: Buffer.from('x') })).rejects.toBeInstanceOf(AccessRefusedError);
  });

  it('gives up with RetriesExhaustedError once the retry window is over, carrying the last fault', async () => {
    // Only the clocks the retry loop reads are faked (its window on the monotonic one, the dates it tells on the wall
    // clock), and moved on by each retry: the window (10 ms) closes after exactly four tries whatever the machine's
    // speed, while the sockets and the 1 ms waits stay real.
    vi.useFakeTimers({ now: 0, toFake: ['Date', 'performance'] });
    try {
      const client = await fixture.client({
        retry: { intervalMs: 1, maxDurationMs: 10, allowShortIntervals: true, onRetry: () => vi.advanceTimersByTime(4) },
      });
      for (let i = 0; i < 4; i++) fixture.mock.store.failNext('soap-upload', { status: 500 });
      const error = await client.uploadFile({ fileID: nextId('exhausted'), fileContent: Buffer.from('x') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RetriesExhaustedError);
      expect((error as RetriesExhaustedError).attempts).toBe(4);
      expect((error as Error).cause).toBeInstanceOf(SoapFaultError);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('uploadFile from a path, a descriptor or a stream: base64-encoded as it is sent', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-soap-upload-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  // Not a multiple of 3, and read in several pieces: groups of three bytes cross the pieces' edges.
  const content = randomBytes(3 * 1024 * 1024 + 1);
  const stored = (fileID: string) => fixture.mock.store.uploads().filter((upload) => upload.fileID === fileID).map((upload) => upload.content.equals(content));
  const pieces = () => (async function* () {
    for (let offset = 0; offset < content.length; offset += 100_001) yield content.subarray(offset, offset + 100_001);
  })();

  it.each([
    { kind: 'a file path', given: async () => ({ fileContent: await saved() }) },
    { kind: 'a descriptor of a regular file', given: async () => ({ fileContent: { fd: openSync(await saved(), 'r') } }) },
    { kind: 'a stream of announced length (sent as it is read)', given: async () => ({ fileContent: Readable.from(pieces()), contentLength: content.length }) },
    { kind: 'a stream of unknown length (read to its end first)', given: async () => ({ fileContent: pieces() }) },
  ])('$kind: the service stores exactly the bytes', async ({ given }) => {
    const client = await fixture.client();
    const fileID = nextId('from-source');
    const { fileContent, contentLength } = (await given()) as { fileContent: UploadContent; contentLength?: number };
    await client.uploadFile({ fileID, fileName: 'source.bin', fileContent }, contentLength === undefined ? {} : { contentLength });
    expect(stored(fileID)).toEqual([true]);
  });

  it('reads the file again for a resend after a dropped connection: one whole copy kept', async () => {
    const client = await fixture.client();
    const fileID = nextId('resent-path');
    fixture.mock.store.failNext('soap-upload', { dropConnection: true });
    await client.uploadFile({ fileID, fileContent: await saved() });
    expect(stored(fileID)).toEqual([true]);
  });

  it('refuses a path that does not exist, and content of another kind, before sending anything', async () => {
    const client = await fixture.client();
    const before = uploadsSoFar();
    const missing = await client.uploadFile({ fileID: nextId('missing'), fileContent: join(dir, 'absent.bin') }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(InvalidRequestError);
    expect((missing as InvalidRequestError).problems).toEqual([{ path: 'uploadFile.fileContent', message: expect.stringMatching(/absent\.bin/) }]);
    const wrongKind = await client.uploadFile({ fileID: nextId('kind'), fileContent: 42 as unknown as Uint8Array }).catch((error: unknown) => error);
    expect(wrongKind).toBeInstanceOf(InvalidRequestError);
    expect(uploadsSoFar()).toBe(before);
  });

  it('stops a stream shorter than announced before its end: the service keeps nothing', async () => {
    const client = await fixture.client();
    const fileID = nextId('short');
    const error = await client.uploadFile({ fileID, fileContent: Readable.from([content.subarray(0, 1000)]) }, { contentLength: 5000 }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'InvalidUploadContentError', retryable: false });
    expect(stored(fileID)).toEqual([]);
  });

  async function saved(): Promise<string> {
    const path = join(dir, `content-${++sequence}.bin`);
    await writeFile(path, content);
    return path;
  }
});
