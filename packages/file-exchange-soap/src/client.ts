import { classifyNetworkFailure, createTlsAgent, parseBaseUrl, SerialQueue, type ClientTlsOptions } from '@paykit/file-exchange/core';
import type { Dispatcher } from 'undici';
import { MalformedResponse, readResponse } from './codec/read-response.js';
import { validateRequest } from './codec/validate-request.js';
import { encodeRequest, writeRequest } from './codec/write-request.js';
import { DownloadSession, type DownloadAllOptions } from './download-session.js';
import {
  InvalidRequestError,
  SoapAccessDeniedError,
  SoapClientOptionsError,
  SoapFaultError,
  SoapHttpError,
  SoapNetworkError,
  SoapResponseError,
  SoapTlsError,
} from './errors.js';
import { operations, type OperationMessages, type OperationName } from './generated/contract.js';
import type { DownloadedFile, UploadFile } from './generated/types.js';
import { resolveRetryPolicy, withRetry, type RetryOptions, type RetryPolicy } from './retry-policy.js';
import { postSoap, type SoapHttpResponse } from './transport/post-soap.js';

export interface FileExchangeSoapClientOptions {
  /** The SOAP base address of the environment ({soap_base_url}); it ends with `/services/messaging`. */
  baseUrl: string;
  /** The same object as the REST client's: PKCS12 + password or PEM certificate + key, optional CA and proxy. */
  tls: ClientTlsOptions;
  /** Retries of network errors and HTTP 500s: the reference's rule unless set; `false` for a single try. */
  retry?: RetryOptions | false;
  /** Milliseconds without data before a request fails. Default: undici's (300 s). */
  timeoutMs?: number;
}

export interface CallOptions {
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
      chunks.push(Buffer.from(chunk));
      length += chunk.byteLength;
      if (length >= 512) break;
    }
  } catch {
    // The start of the body is only a hint for the message; a broken body must not hide the status.
  }
  return Buffer.concat(chunks).subarray(0, 512).toString('utf8').replace(/\s+/g, ' ').trim();
}

/**
 * Typed SOAP 1.1 client of the file exchange (UploadFile and DownloadFiles), over client-certificate TLS. The
 * messages, their order and their checks come from the code generated from the WSDL and XSD.
 */
export class FileExchangeSoapClient {
  /** The service takes one upload at a time (503 otherwise): uploads of this client wait for the previous one. */
  private readonly uploads = new SerialQueue();

  private constructor(
    private readonly dispatcher: Dispatcher,
    readonly baseUrl: string,
    private readonly retry: RetryPolicy,
  ) {}

  /** Opens the certificate now, so that a wrong password fails here (TlsConfigurationError) and not at the first call. */
  static async create(options: FileExchangeSoapClientOptions): Promise<FileExchangeSoapClient> {
    const baseUrl = parseBaseUrl(options.baseUrl, baseUrlExample, (message) => new SoapClientOptionsError(message));
    const retry = resolveRetryPolicy(options.retry);
    const dispatcher = await createTlsAgent(options.tls, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
    return new FileExchangeSoapClient(dispatcher, baseUrl, retry);
  }

  /** Address of an operation's port: the base address followed by the last path segment of the WSDL's address. */
  operationUrl(operation: OperationName): string {
    return `${this.baseUrl}/${operations[operation].path}`;
  }

  /**
   * One operation, typed by the contract. The request is checked against the XSD rules before anything is sent
   * (InvalidRequestError); failures become the typed errors of ./errors.ts. Retried by the client's rule.
   */
  async call<K extends OperationName>(
    operation: K,
    input: OperationMessages[K]['input'],
    options: CallOptions = {},
  ): Promise<OperationMessages[K]['output']> {
    const descriptor = operations[operation];
    const problems = validateRequest(descriptor.input, input);
    if (problems.length > 0) throw new InvalidRequestError(operation, problems);
    const encoded = encodeRequest(writeRequest(descriptor.input, input));
    const retry = options.retry === undefined ? this.retry : resolveRetryPolicy(options.retry);
    const output = await withRetry(operation, retry, () => this.exchange(operation, encoded, options.signal), options.signal);
    return output as OperationMessages[K]['output'];
  }

  /**
   * Sends one file; `fileContent` is bytes, base64-encoded while it is streamed. A request that fails with a network
   * error or HTTP 500 is sent again only when it has a `fileID`: the service ignores a repeated fileID, and without
   * one a resend could create a duplicate. Concurrent calls are sent one after the other, as the service requires.
   */
  async uploadFile(file: UploadFile, options: CallOptions = {}): Promise<void> {
    // Checked now, so that a bad request fails at once instead of after the uploads queued before it.
    const problems = validateRequest(operations.uploadFile.input, file);
    if (problems.length > 0) throw new InvalidRequestError('uploadFile', problems);
    const retry = options.retry ?? (file.fileID === undefined ? false : undefined);
    await this.uploads.run(() => this.call('uploadFile', file, { ...options, ...(retry === undefined ? {} : { retry }) }));
  }

  /** One DownloadFiles exchange: some pending files, or none when the queue is drained. */
  async downloadFiles(queueID: string, options: CallOptions = {}): Promise<DownloadedFile[]> {
    const response = await this.call('downloadFiles', { queueID }, options);
    return response.file ?? [];
  }

  /** Drains the queue: see DownloadSession. `for await (const file of client.downloadAll(queueID)) { ... }` */
  downloadAll(queueID: string, options: DownloadAllOptions & Pick<CallOptions, 'retry'> = {}): DownloadSession {
    const problems = validateRequest(operations.downloadFiles.input, { queueID });
    if (problems.length > 0) throw new InvalidRequestError('downloadFiles', problems);
    const callOptions = options.retry === undefined ? {} : { retry: options.retry };
    return new DownloadSession(queueID, (signal) => this.downloadFiles(queueID, signal ? { ...callOptions, signal } : callOptions), options);
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async exchange(operation: OperationName, encoded: ReturnType<typeof encodeRequest>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const descriptor = operations[operation];
    const url = this.operationUrl(operation);
    let response: SoapHttpResponse;
    try {
      response = await postSoap(this.dispatcher, url, descriptor.soapAction, encoded, signal);
    } catch (error) {
      throw this.networkError(operation, url, error, signal);
    }
    if (response.status === 403) {
      await response.body.dump().catch(() => undefined);
      throw new SoapAccessDeniedError(operation, url);
    }
    const xml = /^(text|application)\/([a-z.+-]*\+)?xml\b/i.test(response.contentType);
    if ((response.status !== 200 && response.status !== 500) || !xml) {
      throw new SoapHttpError(operation, url, response.status, await bodyStart(response));
    }
    let parsed;
    try {
      parsed = await readResponse(response.body, descriptor.output, response.contentLength);
    } catch (error) {
      if (error instanceof MalformedResponse) {
        await response.body.dump().catch(() => undefined);
        if (response.status === 500) throw new SoapHttpError(operation, url, 500, error.message);
        throw new SoapResponseError(operation, error.message);
      }
      throw this.networkError(operation, url, error, signal);
    }
    if (parsed.kind === 'fault') throw new SoapFaultError(operation, response.status, parsed.fault);
    if (response.status !== 200) throw new SoapHttpError(operation, url, response.status, 'a response element with an error status');
    return parsed.value;
  }

  private networkError(operation: string, url: string, error: unknown, signal?: AbortSignal): Error {
    if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error('aborted');
    const failure = classifyNetworkFailure(error);
    const code = failure.code ?? (error instanceof Error ? error.name : 'unknown');
    if (failure.kind === 'server-certificate-untrusted' || failure.kind === 'client-certificate-refused') {
      return new SoapTlsError(operation, url, failure.kind, code);
    }
    // Other TLS failures and a refused proxy tunnel are retried as network errors, as they always were here.
    return new SoapNetworkError(operation, url, code, { cause: error });
  }
}

export function createFileExchangeSoapClient(options: FileExchangeSoapClientOptions): Promise<FileExchangeSoapClient> {
  return FileExchangeSoapClient.create(options);
}
