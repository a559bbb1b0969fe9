import { realpath, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import createOpenApiClient, { type Client } from 'openapi-fetch';
import { errorForStatus, errorForThrown, localFileError } from './classify-failure.js';
import { ClientOptionsError, FileExchangeError, InvalidUploadContentError, ProtocolError, TransientFailureError, UnexpectedResponseError, type FileExchangeOperation } from './errors.js';
import { parseFileList, fileListMediaType, maxListBodyBytes, type FileListFormat } from './file-list.js';
import { callbackThrew } from './core/abort.js';
import { assertValidFileName } from './core/file-name.js';
import type { operations, paths } from './generated/openapi.js';
import { processAll, type FileHandler, type ProcessAllOptions, type ProcessAllReport } from './process-all.js';
import type { CallOptions, TransferOptions, TransferProgress } from './transfer-options.js';
import { resolveRetryPolicy, withRetries, type RetryPolicy, type RetryPolicyOptions } from './retry-policy.js';
import { parseBaseUrl } from './core/base-url.js';
import { CallSignal, followSignals, resolveStallTimeout } from './core/call-signal.js';
import { SerialQueue } from './core/serial-queue.js';
import type { ClientTlsOptions } from './core/tls/client-tls-options.js';
import { TlsConfigurationError } from './core/tls/errors.js';
import { freeBytes, notEnoughSpace } from './free-space.js';
import { forgetTemporary, recordTemporary, removeStaleTemporaries, temporaryName } from './temporary-files.js';
import { FileSink } from './transport/file-sink.js';
import { HttpsTransport } from './transport/https-transport.js';
import { BodyTooLargeError, fetchThrough } from './transport/node-fetch.js';
import { toReplayableContent, type UploadContent } from './upload-content.js';

export interface FileExchangeClientOptions {
  /** The REST base address ({file_api_base_url}), ending with `/services/messaging/rest`. */
  baseUrl: string;
  /** Client certificate (and optional CA and proxy). Required for https; http is for local mocks only. */
  tls?: ClientTlsOptions;
  /** Retries of network errors and 500s: the reference's rule unless set; `false` for a single try. */
  retry?: RetryPolicyOptions | false;
  /**
   * Milliseconds without a byte sent or received, in any phase of a request (body out, waiting for the answer, body
   * in), before the request counts as a network error (`TransientFailureError`, code `ETIMEDOUT`), which the retry
   * rule handles. Default 120 000 (OUR choice: the reference has no timeout); 0 or Infinity for none.
   */
  stallTimeoutMs?: number;
  /** @deprecated The former name of `stallTimeoutMs` (it was off by default); `stallTimeoutMs` wins when both are set. */
  timeoutMs?: number;
  /** Where uploads given as streams are kept while they are sent (default: the system temporary folder). */
  spoolDir?: string;
  /**
   * Extra headers for every request, for mocks and diagnostics (e.g. `Prefer: code=503` for Prism). The client's
   * own headers (Accept, Content-Type, Content-Length) take precedence.
   */
  headers?: Record<string, string>;
}

export interface UploadOptions extends TransferOptions {
  /** Sent as `Content-Type`; any media type (default `application/octet-stream`). */
  contentType?: string;
  /**
   * The content's length in bytes. For a stream it lets the upload start at once, sending the stream as it is read
   * (each piece also kept in a temporary file, for a resend) instead of reading it to its end first; a stream that
   * gives another number of bytes fails the upload before its end. For other content it is checked.
   */
  contentLength?: number;
  /**
   * For a stream, which cannot be read again: when the upload fails for good (a final error, the retries used up, an
   * abort) after the stream was read to its end, its bytes are kept rather than removed, in a private folder of
   * `spoolDir` named `paykit-unsent-…` that no later run removes, and the error's `unsentContentPath` names the file.
   * Ignored for other content (you still have it). Default false: the temporary copy is removed.
   */
  keepUnsent?: boolean;
}

export interface ListOptions extends CallOptions {
  /** `text` (default) asks for `text/plain`, `xml` for `application/xml`. */
  format?: FileListFormat;
}

export interface DownloadedFile {
  name: string;
  /** The `Content-Type` the service sent, when it sent one. */
  contentType: string | undefined;
  /** The `Content-Length` the service sent, when it sent one. */
  contentLength: number | undefined;
  /** The content; read it to the end (or destroy it) so the connection is released. */
  body: Readable;
}

// Contract anchors: these stop compiling if the contract drops a path or the status this client relies on.
type ContractPath = keyof paths;
const uploadPath = '/uploadedFiles/{fileName}' satisfies ContractPath;
const listPath = '/filesForDownload/' satisfies ContractPath;
const filePath = '/filesForDownload/{fileName}' satisfies ContractPath;
const uploadAccepted = 202 satisfies keyof operations['uploadFile']['responses'];
const listReturned = 200 satisfies keyof operations['listFilesForDownload']['responses'];
const listEmpty = 204 satisfies keyof operations['listFilesForDownload']['responses'];
const downloadReturned = 200 satisfies keyof operations['downloadFile']['responses'];
const deleted = 204 satisfies keyof operations['deleteFile']['responses'];

const mediaTypePattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=("[^"\r\n]*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+))*$/;

export const baseUrlExample = 'https://<host>/services/messaging/rest';

/**
 * Client of the file exchange REST interface. Small exchanges (list, delete) go through openapi-fetch with the
 * contract's types; file bodies (upload, download) are streamed, so a file of any size flows through a bounded
 * buffer. Every request travels over node:https with one agent that presents the client certificate (one HTTP stack).
 */
export class FileExchangeClient {
  private readonly base: string;
  private readonly transport: HttpsTransport;
  private readonly retryPolicy: RetryPolicy;
  private readonly stallTimeoutMs: number | undefined;
  private readonly calls = new CallSignal();
  private readonly extraHeaders: Record<string, string>;
  private readonly uploads = new SerialQueue();
  private readonly spoolDir: string | undefined;
  private apiClient: Client<paths> | undefined;

  private constructor(init: {
    base: string;
    transport: HttpsTransport;
    retryPolicy: RetryPolicy;
    stallTimeoutMs: number | undefined;
    options: FileExchangeClientOptions;
  }) {
    this.base = init.base;
    this.transport = init.transport;
    this.retryPolicy = init.retryPolicy;
    this.stallTimeoutMs = init.stallTimeoutMs;
    this.spoolDir = init.options.spoolDir;
    this.extraHeaders = lowerCaseKeys(init.options.headers ?? {});
  }

  /** The typed client of the small exchanges (list, delete), made on first use: uploads and downloads never need it. */
  private get api(): Client<paths> {
    this.apiClient ??= createOpenApiClient<paths>({ baseUrl: this.base, headers: this.extraHeaders });
    return this.apiClient;
  }

  /**
   * The `fetch` one list or delete is made with: over the client's transport, ended by the call's own signal (given
   * here, not read back from the Request openapi-fetch builds: a Request's signal may stop following a signal
   * nobody else references once a garbage collection has run, on Node 20).
   */
  private fetchFor(signal: AbortSignal): (request: Request) => Promise<Response> {
    return fetchThrough(this.transport, { stallTimeoutMs: this.stallTimeoutMs, maxBodyBytes: maxListBodyBytes, signal });
  }

  /** Opens the client certificate now, so a wrong password or missing file fails here with TlsConfigurationError. */
  static async create(options: FileExchangeClientOptions): Promise<FileExchangeClient> {
    const base = parseBaseUrl(options.baseUrl, baseUrlExample, (message) => new ClientOptionsError(message));
    const retryPolicy = resolveRetryPolicy(options.retry);
    const stallTimeoutMs = resolveStallTimeout(options.stallTimeoutMs ?? options.timeoutMs);
    if (!options.tls && base.startsWith('https:')) {
      throw new TlsConfigurationError('invalid-options', 'The service requires a client certificate: give tls.pfx and tls.passphrase, or tls.cert and tls.key.');
    }
    // Plain http (a local Prism) cannot carry a client certificate: the certificate is checked but not sent then.
    const transport = await HttpsTransport.create(base, options.tls);
    return new FileExchangeClient({ base, transport, retryPolicy, stallTimeoutMs, options });
  }

  /** When the client certificate stops being valid (its notAfter); undefined without one. */
  get certificateExpiresAt(): Date | undefined {
    return this.transport.certificateExpiresAt;
  }

  /** The service's address, as checked at `create` (without a trailing slash). */
  get baseUrl(): string {
    return this.base;
  }

  /** The retry policy in force (the reference's unless overridden). */
  get retry(): RetryPolicy {
    return this.retryPolicy;
  }

  /**
   * Uploads one file. `content` is bytes, a file path, a file descriptor or a stream; it is sent with `Content-Type`
   * and `Content-Length`. Uploads through one client run one at a time. Network errors and 500s are retried with the
   * same name and bytes (the service ignores a resent copy).
   */
  async upload(name: string, content: UploadContent, options: UploadOptions = {}): Promise<void> {
    assertValidFileName(name, { operation: 'uploadFile' });
    const contentType = options.contentType ?? 'application/octet-stream';
    if (!mediaTypePattern.test(contentType)) {
      throw new InvalidUploadContentError(`Invalid content type ${JSON.stringify(contentType)}: expected a media type such as text/plain.`, { fileName: name });
    }
    const call = this.calls.open(options.signal);
    const progress = guardProgress(options.onProgress, call.signal);
    const context = { operation: 'uploadFile' as const, fileName: name, signal: progress.signal };
    let replayable;
    try {
      replayable = await toReplayableContent(content, { spoolDir: this.spoolDir, contentLength: options.contentLength });
    } catch (error) {
      progress.release();
      call.release();
      throw error;
    }
    try {
      await this.uploads.run(() =>
        this.retrying(context, async () => {
          const body = replayable.open();
          const response = await this.send(context, uploadPath, {
            method: 'POST',
            headers: { 'content-type': contentType, 'content-length': String(replayable.length) },
            body,
            onBodyPiped: () => reportProgress(body, progress.onProgress, { operation: 'uploadFile', fileName: name, totalBytes: replayable.length }),
          });
          await discard(response);
          if (response.statusCode !== uploadAccepted) throw errorForStatus(context, response.statusCode ?? 0);
        }),
      );
    } catch (error) {
      if (options.keepUnsent === true && replayable.keep && error instanceof FileExchangeError) {
        // A copy that cannot be kept (the folder gone, a full disk on fsync) is removed as before; the failure stands.
        error.unsentContentPath = await replayable.keep(name).catch(() => undefined);
      }
      throw error;
    } finally {
      await replayable.dispose();
      progress.release();
      call.release();
    }
  }

  /**
   * Names of the files waiting for download, in the service's (alphabetical) order; empty when nothing waits. A list
   * longer than the reference's maximum (`fileExchangeRules.downloads.listCap`), or a body too large to be one, is a
   * ProtocolError: the peer is not behaving as the service.
   */
  async list(options: ListOptions = {}): Promise<string[]> {
    const format = options.format ?? 'text';
    const call = this.calls.open(options.signal);
    const context = { operation: 'listFilesForDownload' as const, signal: call.signal };
    return this.retrying(context, async () => {
      let outcome;
      try {
        outcome = await this.api.GET(listPath, { headers: { Accept: fileListMediaType[format] }, parseAs: 'text', signal: context.signal, fetch: this.fetchFor(context.signal) });
      } catch (error) {
        if (error instanceof BodyTooLargeError && !context.signal.aborted) {
          throw new ProtocolError(`listFilesForDownload: ${error.message}, far more than a list of names can be; refused.`, { operation: context.operation });
        }
        throw errorForThrown(context, error);
      }
      const status = outcome.response.status;
      if (status === listEmpty) return [];
      if (status !== listReturned) throw errorForStatus(context, status);
      checkListMediaType(format, outcome.response.headers.get('content-type'), context);
      return parseFileList(format, outcome.data ?? '');
    }).finally(call.release);
  }

  /**
   * Starts downloading a file and resolves with its content as a stream once the service answered 200. Failures
   * before the answer are retried; a failure while reading the stream is the reader's to handle (see downloadToFile).
   * The signal and the stall timeout keep watching the stream until it ends.
   */
  async download(name: string, options: CallOptions = {}): Promise<DownloadedFile> {
    assertValidFileName(name, { operation: 'downloadFile' });
    const call = this.calls.open(options.signal);
    const context = { operation: 'downloadFile' as const, fileName: name, signal: call.signal };
    try {
      const file = await this.retrying(context, () => this.openDownload(context));
      // The signal keeps watching the body until it is over.
      file.body.once('close', call.release);
      return file;
    } catch (error) {
      call.release();
      throw error;
    }
  }

  /**
   * Downloads a file into `path`, replacing it if it exists only once the whole file has arrived: the bytes go to a
   * temporary file beside it (`~paykit-saving-<pid>-…`, which no service file name can be), renamed to `path` at the
   * end, so a refusal, a failure or a cut-off download leaves what was at `path` as it was. A network error part way
   * (a stall included) restarts the download under the retry policy. Each try counts towards the downloads the
   * service allows per file: a local file failure (LocalFileError) is therefore never retried, and a file announced
   * larger than the free space of the folder fails as a full disk before a byte is written (`neededBytes` says how
   * much it needs).
   */
  async downloadToFile(name: string, path: string, options: TransferOptions = {}): Promise<{ size: number }> {
    assertValidFileName(name, { operation: 'downloadFile' });
    const call = this.calls.open(options.signal);
    const guarded = guardProgress(options.onProgress, call.signal);
    const context = { operation: 'downloadFile' as const, fileName: name, signal: guarded.signal };
    const target = await downloadTarget(path).catch((error: unknown) => {
      throw localFileError(context, path, error);
    });
    const folder = dirname(target.path);
    // The name is written last (a rename): one too long for the file system must fail before a download is spent.
    if (Buffer.byteLength(basename(target.path)) > longestFileNameBytes) {
      throw localFileError(context, path, Object.assign(new Error(`file name too long (over ${longestFileNameBytes} bytes)`), { code: 'ENAMETOOLONG' }));
    }
    // What a run killed with SIGKILL left beside its target: its process is gone, nothing else can remove it.
    if (!target.inPlace) await removeStaleTemporaries(folder);
    return this.retrying(context, async () => {
      const temporary = target.inPlace ? target.path : join(folder, temporaryName('saving'));
      if (!target.inPlace) recordTemporary(temporary);
      let saved = false;
      // Opened first: a file that cannot be written fails before a download is spent on it.
      const sink = await FileSink.open(temporary).catch((error: unknown) => {
        forgetTemporary(temporary);
        throw localFileError(context, path, error);
      });
      try {
        const file = await this.openDownload(context);
        const announced = file.contentLength;
        if (announced !== undefined && !target.inPlace) {
          const free = await freeBytes(folder);
          if (free !== undefined && free < announced) {
            file.body.destroy();
            throw localFileError(context, path, notEnoughSpace(folder, announced, free), announced);
          }
        }
        const progress = progressReporter(guarded.onProgress, { operation: 'downloadFile', fileName: name, totalBytes: announced });
        try {
          await sink.receive(file.body, progress);
        } catch (error) {
          // What the file needs: its announced length, or at least what had come when the disk filled.
          throw (error as { fileFailed?: boolean }).fileFailed ? localFileError(context, path, error, announced ?? sink.bytesReceived + 1) : errorForThrown(context, error);
        }
        const size = sink.bytesReceived;
        if (announced !== undefined && size !== announced) {
          throw new TransientFailureError(`downloadFile ${name}: received ${size} of ${announced} bytes.`, context);
        }
        if (!target.inPlace) {
          await rename(temporary, target.path).catch((error: unknown) => {
            throw localFileError(context, path, error);
          });
        }
        saved = true;
        return { size };
      } finally {
        if (!saved) {
          sink.close();
          if (!target.inPlace) await rm(temporary, { force: true });
        }
        forgetTemporary(temporary);
      }
    }).finally(() => {
      guarded.release();
      call.release();
    });
  }

  private async openDownload(context: CallContext): Promise<DownloadedFile> {
    const response = await this.send(context, filePath, { method: 'GET', headers: {} });
    if (response.statusCode !== downloadReturned) {
      await discard(response);
      throw errorForStatus(context, response.statusCode ?? 0);
    }
    const length = response.headers['content-length'];
    const type = response.headers['content-type'];
    return {
      name: context.fileName,
      contentType: typeof type === 'string' ? type : undefined,
      contentLength: typeof length === 'string' ? Number(length) : undefined,
      body: response,
    };
  }

  /** Removes a processed file from the download list; deleting an already deleted file succeeds (204). */
  async delete(name: string, options: CallOptions = {}): Promise<void> {
    assertValidFileName(name, { operation: 'deleteFile' });
    const call = this.calls.open(options.signal);
    const context = { operation: 'deleteFile' as const, fileName: name, signal: call.signal };
    await this.retrying(context, async () => {
      let outcome;
      try {
        outcome = await this.api.DELETE(filePath, { params: { path: { fileName: name } }, parseAs: 'text', signal: context.signal, fetch: this.fetchFor(context.signal) });
      } catch (error) {
        throw errorForThrown(context, error);
      }
      if (outcome.response.status !== deleted) throw errorForStatus(context, outcome.response.status);
    }).finally(call.release);
  }

  /** Drains the download queue through `handler`, deleting each file only once it was handled; see processAll. */
  processAll(handler: FileHandler, options?: ProcessAllOptions): Promise<ProcessAllReport> {
    return processAll(this, handler, options);
  }

  /**
   * Ends every call in flight and every wait before a retry (they reject with AbortedError), then closes the
   * connections: nothing of the client keeps the process alive afterwards.
   */
  async close(): Promise<void> {
    this.calls.close();
    this.transport.close();
  }

  private retrying<T>(context: Omit<CallContext, 'fileName'> & { fileName?: string }, attempt: () => Promise<T>): Promise<T> {
    return withRetries(this.retryPolicy, { operation: context.operation, fileName: context.fileName }, attempt, context.signal);
  }

  private async send(
    context: CallContext,
    path: typeof uploadPath | typeof filePath,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Buffer | Readable; onBodyPiped?: () => void },
  ): Promise<IncomingMessage> {
    const url = new URL(this.base + path.replace('{fileName}', encodeURIComponent(context.fileName)));
    try {
      return await this.transport.send({
        url,
        method: init.method,
        headers: { ...this.extraHeaders, ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.onBodyPiped === undefined ? {} : { onBodyPiped: init.onBodyPiped }),
        stallTimeoutMs: this.stallTimeoutMs,
        signal: context.signal,
        failure: (error) => errorForThrown(context, error),
      });
    } catch (error) {
      throw errorForThrown(context, error);
    }
  }
}

/**
 * A 200 to a list is a list only in the media type asked for: a captive proxy's or a load balancer's HTML page
 * otherwise passed as one (text: each line a "name"; XML: an empty queue). An answer without a type is taken as it
 * comes (the service sends one).
 */
function checkListMediaType(format: FileListFormat, contentType: string | null, context: { operation: FileExchangeOperation }): void {
  if (contentType === null) return;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const fits = format === 'text' ? type === 'text/plain' : /^(application|text)\/([a-z.+-]*\+)?xml$/.test(type);
  if (!fits) {
    throw new UnexpectedResponseError(
      `listFilesForDownload: the answer is ${type}, not ${fileListMediaType[format]}: not the service's list (a proxy's login page?).`,
      { operation: context.operation, status: 200 },
    );
  }
}

/** One call of a file: what its errors name, and the signal that ends it (the caller's or close()). */
type CallContext = { operation: FileExchangeOperation; fileName: string; signal: AbortSignal };

/**
 * Where a download goes: a regular file (existing or not) is replaced by a rename at the end, through a link to the
 * file it names; anything else that exists (a device such as /dev/null, a pipe) is written in place, as it cannot be
 * replaced without destroying it. A folder is refused (EISDIR).
 */
async function downloadTarget(path: string): Promise<{ path: string; inPlace: boolean }> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, inPlace: false };
    throw error;
  }
  const info = await stat(real);
  if (info.isDirectory()) throw Object.assign(new Error(`${path} is a folder`), { code: 'EISDIR', path });
  return { path: real, inPlace: !info.isFile() };
}

/** The longest file name (one path segment) the usual file systems take (Linux NAME_MAX). */
const longestFileNameBytes = 255;

/** At most this often (and at the first and the last byte), `onProgress` is told: progress output needs no more. */
const progressEveryMs = 100;

/**
 * The caller's `onProgress`, made safe to call from a stream's events, and the call's signal, also aborted when that
 * callback throws: the call then ends at once with AbortedError (its cause says what the callback threw), never
 * retried, where the throw would otherwise escape from a stream event (an uncaught exception) or pass for a network
 * failure. The callback is not called again.
 */
function guardProgress(
  onProgress: TransferOptions['onProgress'],
  signal: AbortSignal,
): { signal: AbortSignal; onProgress: TransferOptions['onProgress']; release: () => void } {
  if (!onProgress) return { signal, onProgress, release: () => undefined };
  const threw = new AbortController();
  const linked = followSignals(signal, threw.signal);
  return {
    signal: linked.signal,
    release: linked.release,
    onProgress: (progress) => {
      if (threw.signal.aborted) return;
      try {
        onProgress(progress);
      } catch (error) {
        threw.abort(callbackThrew('onProgress', error));
      }
    },
  };
}

/** A function to call with the bytes moved so far, telling `onProgress` at the first and last byte and every 100 ms. */
function progressReporter(onProgress: TransferOptions['onProgress'], transfer: Omit<TransferProgress, 'bytes'>): ((bytes: number) => void) | undefined {
  if (!onProgress) return undefined;
  let told = -Infinity;
  return (bytes) => {
    const now = performance.now();
    if (now - told < progressEveryMs && bytes !== transfer.totalBytes) return;
    told = now;
    onProgress({ ...transfer, bytes });
  };
}

/** Tells `onProgress` about the bytes of an upload's body as they pass (a Buffer goes out in one piece). */
function reportProgress(body: Buffer | Readable, onProgress: TransferOptions['onProgress'], transfer: Omit<TransferProgress, 'bytes'>): void {
  const progress = progressReporter(onProgress, transfer);
  if (!progress) return;
  if (Buffer.isBuffer(body)) {
    progress(body.length);
    return;
  }
  let bytes = 0;
  body.on('data', (chunk: Buffer) => progress((bytes += chunk.length)));
}

/** Reads a response to its end (its content is not needed) so the connection can be reused. */
function discard(response: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    response.once('end', resolve).once('error', () => resolve()).once('close', resolve);
    response.resume();
  });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

export function createFileExchangeClient(options: FileExchangeClientOptions): Promise<FileExchangeClient> {
  return FileExchangeClient.create(options);
}
