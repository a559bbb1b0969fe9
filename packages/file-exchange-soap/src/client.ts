import {
  CallSignal,
  errorForThrown,
  freeBytes,
  HttpsTransport,
  isRetriedStatus,
  parseBaseUrl,
  resolveRetryPolicy,
  resolveStallTimeout,
  SerialQueue,
  toReplayableContent,
  withRetries,
  type ReplayableContent,
} from '@paykit/file-exchange/core';
// Public names from the package's main entry (the core is bundled in from source; its classes are the REST package's).
import {
  AccessRefusedError,
  ClientOptionsError,
  FileExchangeError,
  LocalFileError,
  ProtocolError,
  TransientFailureError,
  UnexpectedResponseError,
  type ClientTlsOptions,
  type UploadContent,
} from '@paykit/file-exchange';
import { Readable } from 'node:stream';
import { MalformedResponse, readResponse } from './codec/read-response.js';
import { validateRequest } from './codec/validate-request.js';
import { encodeRequest, writeRequest } from './codec/write-request.js';
import { DownloadSession, type DownloadAllOptions } from './download-session.js';
import { InvalidRequestError, SoapFaultError } from './errors.js';
import { SoapFolder, type ResponseFiles, type SavedContent, type SavedFile } from './folder-sinks.js';
import { operations, type OperationMessages, type OperationName } from './generated/contract.js';
import type { DownloadedFile, UploadFile } from './generated/types.js';
import type { RetryOptions, RetryPolicy } from './retry-policy.js';
import { discard, postSoap, type SoapHttpResponse } from './transport/post-soap.js';

export interface FileExchangeSoapClientOptions {
  /** The SOAP base address of the environment ({soap_base_url}); it ends with `/services/messaging`. */
  baseUrl: string;
  /** The same object as the REST client's: PKCS12 + password or PEM certificate + key, optional CA and proxy. */
  tls: ClientTlsOptions;
  /** Retries of network errors and HTTP 500s: the reference's rule unless set; `false` for a single try. */
  retry?: RetryOptions | false;
  /**
   * Milliseconds without a byte sent or received, in any phase of an exchange, before it counts as a network error
   * (`TransientFailureError`, code `ETIMEDOUT`) that the retry rule handles. Default 120 000 (OUR choice, as for the
   * REST client); 0 or Infinity for none.
   */
  stallTimeoutMs?: number;
  /** @deprecated The former name of `stallTimeoutMs`; `stallTimeoutMs` wins when both are set. */
  timeoutMs?: number;
}

/** What `uploadFile` takes: the contract's `UploadFile`, whose `fileContent` may also be a path, a descriptor or a stream. */
export type UploadFileInput = Omit<UploadFile, 'fileContent'> & { fileContent: UploadContent };

export interface UploadFileOptions extends CallOptions {
  /** The length in bytes of a stream given as `fileContent`: it is then sent as it is read (see uploadFile). */
  contentLength?: number;
  /** Where a stream of unknown length is kept while it is sent (default: the system's temporary folder). */
  spoolDir?: string;
}

export interface CallOptions {
  /** Ends the call in any phase, the wait before a retry included: it rejects with AbortedError. */
  signal?: AbortSignal;
  /** Overrides the client's retry rule for this call. */
  retry?: RetryOptions | false;
}

const baseUrlExample = 'https://<host>/services/messaging';

async function bodyStart(response: SoapHttpResponse): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of response.body) {
      chunks.push(Buffer.from(chunk as Buffer));
      length += (chunk as Buffer).byteLength;
      if (length >= 512) break;
    }
  } catch {
    // The start of the body is only a hint for the message; a broken body must not hide the status.
  }
  return Buffer.concat(chunks).subarray(0, 512).toString('utf8').replace(/\s+/g, ' ').trim();
}

/**
 * Typed SOAP 1.1 client of the file exchange (UploadFile and DownloadFiles), over client-certificate TLS. The
 * messages, their order and their checks come from the code generated from the WSDL and XSD; its errors, retry rule,
 * stall timeout and name check are the shared core's, the same as the REST client's.
 */
export class FileExchangeSoapClient {
  /** The service takes one upload at a time (503 otherwise): uploads of this client wait for the previous one. */
  private readonly uploads = new SerialQueue();
  private readonly calls = new CallSignal();

  private constructor(
    private readonly transport: HttpsTransport,
    readonly baseUrl: string,
    private readonly retry: RetryPolicy,
    private readonly stallTimeoutMs: number | undefined,
    private readonly retryClientFaults: boolean,
  ) {}

  /** Opens the certificate now, so that a wrong password fails here (TlsConfigurationError) and not at the first call. */
  static async create(options: FileExchangeSoapClientOptions): Promise<FileExchangeSoapClient> {
    const baseUrl = parseBaseUrl(options.baseUrl, baseUrlExample, (message) => new ClientOptionsError(message));
    const retry = resolveRetryPolicy(options.retry);
    const stallTimeoutMs = resolveStallTimeout(options.stallTimeoutMs ?? options.timeoutMs);
    // The REST client's transport (node:https, one stall timer per request, the same errors): see HttpsTransport.
    if (!options.tls && baseUrl.startsWith('https:')) {
      throw new ClientOptionsError('The service requires a client certificate: give tls.pfx and tls.passphrase, or tls.cert and tls.key.');
    }
    const transport = await HttpsTransport.create(baseUrl, options.tls);
    const retryClientFaults = options.retry !== false && options.retry?.soapClientFaults === 'retry';
    return new FileExchangeSoapClient(transport, baseUrl, retry, stallTimeoutMs, retryClientFaults);
  }

  /** Address of an operation's port: the base address followed by the last path segment of the WSDL's address. */
  operationUrl(operation: OperationName): string {
    return `${this.baseUrl}/${operations[operation].path}`;
  }

  /**
   * One operation, typed by the contract. The request is checked against the XSD rules before anything is sent
   * (InvalidRequestError); failures become the shared typed errors. Retried by the client's rule.
   */
  call<K extends OperationName>(operation: K, input: OperationMessages[K]['input'], options: CallOptions = {}): Promise<OperationMessages[K]['output']> {
    return this.exchangeWithRetries(operation, input, options, undefined) as Promise<OperationMessages[K]['output']>;
  }

  /**
   * Sends one file. `fileContent` is bytes, a **file path** (a string is always a path), an open descriptor of a
   * regular file (`{ fd }`) or a stream (a Node `Readable` or any async iterable of bytes): it is base64-encoded as it
   * is sent, never held whole (a 1 GiB file from a path peaks far below the file's size). The request's length must
   * be known before its first byte: a stream is sent as it is read when `options.contentLength` gives its length,
   * and read to its end into a private temporary file first otherwise (`spoolDir`, default the system's temporary
   * folder), which also lets a resend read it again. A request that fails with a network error or HTTP 500 is sent
   * again only when it has a `fileID`: the service ignores a repeated fileID, and without one a resend could create a
   * duplicate. Concurrent calls are sent one after the other, as the service requires.
   */
  async uploadFile(file: UploadFileInput, options: UploadFileOptions = {}): Promise<void> {
    const { fileContent, ...fields } = file;
    const inMemory = fileContent instanceof Uint8Array;
    // Checked now, so that a bad request fails at once instead of after the uploads queued before it; content other
    // than bytes is checked by kind here, and read only when its turn comes.
    const stand = inMemory || fileContent === undefined ? fileContent : new Uint8Array(0);
    const problems = validateRequest(operations.uploadFile.input, { ...fields, fileContent: stand });
    if (!inMemory && fileContent !== undefined && !isUploadContent(fileContent)) {
      problems.push({ path: 'uploadFile.fileContent', message: 'must be bytes, a file path, a file descriptor ({ fd }) or a stream' });
    }
    if (problems.length > 0) throw new InvalidRequestError('uploadFile', problems);
    const retry = options.retry ?? (file.fileID === undefined ? false : undefined);
    const callOptions = { ...(options.signal ? { signal: options.signal } : {}), ...(retry === undefined ? {} : { retry }) };
    await this.uploads.run(async () => {
      let content: Uint8Array | ReplayableContent = fileContent as Uint8Array;
      if (!inMemory) {
        try {
          content = await toReplayableContent(fileContent, { contentLength: options.contentLength, spoolDir: options.spoolDir });
        } catch (error) {
          if (error instanceof FileExchangeError && error.name === 'InvalidUploadContentError') {
            throw new InvalidRequestError('uploadFile', [{ path: 'uploadFile.fileContent', message: error.message }]);
          }
          throw error;
        }
      }
      try {
        await this.exchangeWithRetries('uploadFile', { ...fields, fileContent: content }, callOptions, undefined, { validated: true });
      } finally {
        if (!inMemory) await (content as ReplayableContent).dispose();
      }
    });
  }

  /**
   * One DownloadFiles exchange: some pending files, or none when the queue is drained. The names are given as the
   * service sent them: `downloadAll` checks them before yielding a file (check with `isValidFileName` here).
   */
  async downloadFiles(queueID: string, options: CallOptions = {}): Promise<DownloadedFile[]> {
    const response = await this.call('downloadFiles', { queueID }, options);
    return response.file ?? [];
  }

  /**
   * One DownloadFiles exchange whose files are written into `folder` as they arrive (memory stays bounded whatever
   * their size), each made durable with its fields as soon as it is complete: see SoapFolder. The files are yours
   * once this resolves (their sidecars are removed). If the response fails part way, the files saved before the
   * failure stay with their sidecars, named by the error's `savedFiles`; `downloadAllToFolder` hands them over.
   */
  async downloadFilesToFolder(queueID: string, folder: string, options: CallOptions = {}): Promise<SavedFile[]> {
    const store = new SoapFolder(folder);
    const files = await this.downloadIntoFolder(queueID, store, options);
    for (const file of files) store.acknowledge(file);
    return files;
  }

  private async downloadIntoFolder(queueID: string, folder: SoapFolder, options: CallOptions): Promise<SavedFile[]> {
    const response = (await this.exchangeWithRetries('downloadFiles', { queueID }, options, folder)) as { file?: Array<Omit<DownloadedFile, 'fileContent'> & { fileContent: SavedContent }> };
    return (response.file ?? []).map(({ fileContent, ...file }) => ({ ...file, path: fileContent.path, size: fileContent.size }));
  }

  /** Drains the queue: see DownloadSession. `for await (const file of client.downloadAll(queueID)) { ... }` */
  downloadAll(queueID: string, options: DownloadAllOptions & Pick<CallOptions, 'retry'> = {}): DownloadSession<DownloadedFile> {
    this.checkQueueID(queueID);
    return new DownloadSession(queueID, (signal) => this.downloadFiles(queueID, this.batchOptions(options, signal)), options);
  }

  /**
   * Drains the queue like downloadAll, each file written into `folder` (see SoapFolder) instead of memory. Files an
   * earlier run saved there and did not finish with (killed, or stopped by a full disk) come first, with their
   * fields. By default the fileIDs processed are kept in the folder (`.paykit-soap-processed-ids.txt`), so a file
   * the service sends again is not handed over twice; `seen` replaces that.
   */
  downloadAllToFolder(queueID: string, folder: string, options: DownloadAllOptions & Pick<CallOptions, 'retry'> = {}): DownloadSession<SavedFile> {
    this.checkQueueID(queueID);
    const store = new SoapFolder(folder);
    const seen = options.seen ?? { has: (fileID: string) => store.processed.has(fileID), add: (fileID: string) => store.processed.record(fileID) };
    return new DownloadSession(queueID, (signal) => this.downloadIntoFolder(queueID, store, this.batchOptions(options, signal)), { ...options, seen }, store);
  }

  /**
   * Ends every exchange in flight and every wait before a retry (they reject with AbortedError), then closes the
   * connections: nothing of the client keeps the process alive afterwards.
   */
  async close(): Promise<void> {
    this.calls.close();
    this.transport.close();
  }

  private checkQueueID(queueID: string): void {
    const problems = validateRequest(operations.downloadFiles.input, { queueID });
    if (problems.length > 0) throw new InvalidRequestError('downloadFiles', problems);
  }

  private batchOptions(options: Pick<CallOptions, 'retry'>, signal: AbortSignal | undefined): CallOptions {
    return { ...(options.retry === undefined ? {} : { retry: options.retry }), ...(signal ? { signal } : {}) };
  }

  private async exchangeWithRetries(operation: OperationName, input: object, options: CallOptions, folder: SoapFolder | undefined, checked: { validated?: boolean } = {}): Promise<unknown> {
    const descriptor = operations[operation];
    const problems = checked.validated ? [] : validateRequest(descriptor.input, input);
    if (problems.length > 0) throw new InvalidRequestError(operation, problems);
    const encoded = encodeRequest(writeRequest(descriptor.input, input));
    const retry = options.retry === undefined ? this.retry : resolveRetryPolicy(options.retry);
    const retryClientFaults = options.retry === undefined ? this.retryClientFaults : options.retry !== false && options.retry.soapClientFaults === 'retry';
    const call = this.calls.open(options.signal);
    // The files committed by tries that failed later: a failure that ends the call names them (savedFiles).
    const saved = new Map<string, SavedFile>();
    return withRetries(
      retry,
      { operation },
      async () => {
        const files = folder?.forResponse();
        try {
          return await this.exchange(operation, encoded, { signal: call.signal, files, folder, retryClientFaults });
        } catch (error) {
          files?.discard();
          for (const file of files?.committed ?? []) saved.set(file.fileID, file);
          throw error;
        }
      },
      call.signal,
    )
      .catch((error: unknown) => {
        if (saved.size > 0 && error instanceof FileExchangeError) throw Object.assign(error, { savedFiles: [...saved.values()] });
        throw error;
      })
      .finally(call.release);
  }

  private async exchange(
    operation: OperationName,
    encoded: ReturnType<typeof encodeRequest>,
    call: { signal: AbortSignal; files: ResponseFiles | undefined; folder: SoapFolder | undefined; retryClientFaults: boolean },
  ): Promise<Record<string, unknown>> {
    const descriptor = operations[operation];
    const url = this.operationUrl(operation);
    const context = { operation, signal: call.signal };
    // Ended by the caller's signal, close(), or a stall (the transport's timer), whichever comes first; whoever reads
    // the body then gets the typed error.
    const failure = (cause: unknown) => errorForThrown(context, cause);
    let response: SoapHttpResponse;
    try {
      response = await postSoap(this.transport, url, descriptor.soapAction, encoded, { signal: call.signal, stallTimeoutMs: this.stallTimeoutMs, failure });
    } catch (error) {
      throw errorForThrown(context, error);
    }
    if (response.status === 403) {
      await discard(response.body);
      throw new AccessRefusedError(
        `${operation}: access refused (HTTP 403) by ${url}. Check that the client certificate is the one issued for this ` +
          "environment and that this machine's address is in the allowed IP list.",
        { operation, status: 403 },
      );
    }
    const xml = /^(text|application)\/([a-z.+-]*\+)?xml\b/i.test(response.contentType);
    if ((response.status !== 200 && response.status !== 500) || !xml) throw statusError(operation, url, response.status, await bodyStart(response));
    if (call.folder && response.contentLength !== undefined) {
      // The decoded files can be no larger than 3/4 of the response: a folder without that room fails now, the
      // response not read (a download interrupted is one the service sends again), not part way with a file lost.
      const needed = Math.floor((response.contentLength * 3) / 4);
      const free = await freeBytes(call.folder.folder);
      if (free !== undefined && free < needed) {
        response.body.destroy();
        throw new LocalFileError(
          `${operation}: not enough space in ${call.folder.folder} for this response (up to ${needed} bytes of files, ${free} free); ` +
            'it was not read, so the service sends its files again: free some space and run again.',
          { operation, code: 'ENOSPC', path: call.folder.folder, neededBytes: needed },
        );
      }
    }
    let parsed;
    try {
      parsed = await readResponse(response.body, descriptor.output, {
        contentLength: response.contentLength,
        openBinarySink: call.files ? (field, file) => call.files!.sink(field, file) : undefined,
        onComplete: call.files ? (field, value) => call.files!.complete(field, value) : undefined,
      });
    } catch (error) {
      if (error instanceof LocalFileError && call.files) {
        // The download stops here (a full disk, most often): an interrupted download is one the service sends again.
        response.body.destroy();
        const kept = call.files.committed.length;
        throw new LocalFileError(
          `${error.message} The download was stopped there, so the service should send this file and the rest of the response again; ` +
            `${kept === 0 ? 'no file of this response was complete before it' : `the ${kept} file(s) of this response before it were saved and are handed over`}.`,
          { operation, fileName: error.fileName, path: error.path, code: error.code, neededBytes: error.neededBytes, cause: error.cause },
        );
      }
      if (error instanceof MalformedResponse) {
        response.body.destroy();
        if (response.status === 500) throw statusError(operation, url, 500, error.message);
        throw new ProtocolError(`${operation}: the response does not follow the contract: ${error.message}`, { operation, status: response.status });
      }
      if (error instanceof FileExchangeError) throw error;
      throw errorForThrown(context, error);
    }
    if (parsed.kind === 'fault') throw new SoapFaultError(operation, response.status, parsed.fault, call.retryClientFaults);
    if (response.status !== 200) throw statusError(operation, url, response.status, 'a response element with an error status');
    return parsed.value;
  }
}

/** A 500 without a fault is what the reference retries (TransientFailureError); any other status is unexpected. */
function statusError(operation: OperationName, url: string, status: number, bodyStart: string): FileExchangeError {
  const message = `${operation}: unexpected HTTP ${status} from ${url}${bodyStart ? `: ${bodyStart}` : ''}`;
  return isRetriedStatus(status) ? new TransientFailureError(message, { operation, status }) : new UnexpectedResponseError(message, { operation, status });
}

/** Content other than bytes that uploadFile reads when the upload's turn comes. */
function isUploadContent(content: unknown): boolean {
  if (typeof content === 'string') return content.length > 0;
  if (content instanceof Readable) return true;
  if (content === null || typeof content !== 'object') return false;
  return Symbol.asyncIterator in content || typeof (content as { fd?: unknown }).fd === 'number';
}

export function createFileExchangeSoapClient(options: FileExchangeSoapClientOptions): Promise<FileExchangeSoapClient> {
  return FileExchangeSoapClient.create(options);
}
