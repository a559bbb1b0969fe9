import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { fileNamePattern, rules } from './generated/file-exchange/rules.js';
import { contentFromBuffer, contentFromFile, type FileContent } from './file-content.js';

/** The reference's rule for file names (letters, digits, underscores, dashes and full stops), from the contract. */
export const FILE_NAME_PATTERN: RegExp = fileNamePattern;

export type MockOperation = 'upload' | 'list' | 'download' | 'delete' | 'soap-upload' | 'soap-download';

/**
 * An injected failure. `status` answers that HTTP status (SOAP: with a SOAP fault, except 403). `dropConnection`
 * destroys the connection without an answer. For uploads, a 500 or a dropped connection happens after the file was
 * stored (the transfer worked, the answer was lost), which is what makes a resend meaningful. For `soap-download`,
 * `afterResponse: true` sends the response in full and then behaves as if its delivery failed: the same files come
 * again in the next response, as after a network error.
 */
export type InjectedFailure = { status: number } | { dropConnection: true; afterResponse?: boolean };

export interface UploadedFileRecord {
  fileName?: string;
  fileID?: string;
  fileType?: string;
  mimeType?: string;
  parameters?: Array<{ name: string; value: string }>;
  /** Read when first accessed: a large upload stays on disk until a test asks for its bytes. */
  content: Buffer;
  size: number;
  /** Hex SHA-256 of the content, to check a large upload without reading it. */
  sha256: string;
  via: 'rest' | 'soap';
  /** Set when the mock's `rejectUpload` check refused the file after answering 202. */
  rejectedReason?: string;
}

export interface DownloadFileInput {
  fileName: string;
  /** The bytes; or give `contentFile`, a path read at download time (for large files). */
  content?: Buffer;
  contentFile?: string;
  fileID?: string;
  fileType?: string;
  mimeType?: string;
  parameters?: Array<{ name: string; value: string }>;
}

/** The shared state of the REST and SOAP mocks, and their test controls. */
export interface FileExchangeStore {
  enqueueDownload(file: DownloadFileInput): void;
  uploads(): UploadedFileRecord[];
  /** Names waiting in the download queue, alphabetically. */
  pendingDownloads(): string[];
  failNext(operation: MockOperation, how: InjectedFailure): void;
  /**
   * REST uploads being received at this moment (the service takes one at a time, a second one gets 503): lets a
   * test wait for the moment an upload has reached the service, or has been given up, instead of guessing it with a
   * delay.
   */
  uploadsBeingReceived(): number;
}

export interface QueuedFile {
  fileName: string;
  fileID: string;
  fileType?: string;
  mimeType?: string;
  parameters?: Array<{ name: string; value: string }>;
  content: FileContent;
  downloadAttempts: number;
}

interface StoredUpload extends Omit<UploadedFileRecord, 'content' | 'size' | 'sha256'> {
  content: FileContent;
}

export type UploadOutcome = 'accepted' | 'duplicate-ignored' | 'name-reused';
export type DownloadOutcome = { kind: 'found'; file: QueuedFile } | { kind: 'not-found' } | { kind: 'too-many-attempts' };

export interface StoreLimits {
  maxDownloadAttempts: number;
  maxListEntries: number;
  rejectUpload?: (upload: UploadedFileRecord) => string | undefined;
}

/** The behaviour table of the reference, independent of REST or SOAP. */
export class FileExchangeState implements FileExchangeStore {
  private readonly queue = new Map<string, QueuedFile>();
  private readonly removedFromQueue = new Set<string>();
  private readonly uploaded: StoredUpload[] = [];
  private readonly failures = new Map<MockOperation, InjectedFailure[]>();
  /** The failures applied so far, in order (the control interface counts them). */
  readonly appliedFailures: { operation: MockOperation; failure: InjectedFailure }[] = [];
  private uploadsInProgress = 0;
  private fileIdSequence = 0;

  constructor(private readonly limits: StoreLimits) {}

  enqueueDownload(file: DownloadFileInput): void {
    if (!FILE_NAME_PATTERN.test(file.fileName)) throw new TypeError(`invalid file name for the download queue: ${JSON.stringify(file.fileName)}`);
    if ((file.content === undefined) === (file.contentFile === undefined)) {
      throw new TypeError('enqueueDownload needs exactly one of content and contentFile');
    }
    const content = file.content !== undefined ? contentFromBuffer(file.content) : fileContentOf(file.contentFile!);
    this.fileIdSequence += 1;
    this.queue.set(file.fileName, {
      fileName: file.fileName,
      fileID: file.fileID ?? `FX${String(this.fileIdSequence).padStart(8, '0')}-${randomUUID().slice(0, 8)}`,
      fileType: file.fileType,
      mimeType: file.mimeType,
      parameters: file.parameters,
      content,
      downloadAttempts: 0,
    });
    this.removedFromQueue.delete(file.fileName);
  }

  uploads(): UploadedFileRecord[] {
    return this.uploaded.map(recordOf);
  }

  pendingDownloads(): string[] {
    return [...this.queue.keys()].sort(compareNames);
  }

  failNext(operation: MockOperation, how: InjectedFailure): void {
    const queued = this.failures.get(operation) ?? [];
    queued.push(how);
    this.failures.set(operation, queued);
  }

  takeFailure(operation: MockOperation, when?: (failure: InjectedFailure) => boolean): InjectedFailure | undefined {
    const queued = this.failures.get(operation);
    if (!queued?.length || (when && !when(queued[0]!))) return undefined;
    const failure = queued.shift()!;
    this.appliedFailures.push({ operation, failure });
    return failure;
  }

  /** The failures waiting, by operation, each in the order it applies. */
  pendingFailures(): { operation: MockOperation; failure: InjectedFailure }[] {
    return [...this.failures].flatMap(([operation, queued]) => queued.map((failure) => ({ operation, failure })));
  }

  /** Forgets every waiting failure and the count of applied ones. */
  clearFailures(): void {
    this.failures.clear();
    this.appliedFailures.length = 0;
  }

  /** The service takes a set number of uploads at once (one); false means that many are being received. */
  beginUpload(): boolean {
    if (this.uploadsInProgress >= rules.uploads.maxConcurrent) return false;
    this.uploadsInProgress += 1;
    return true;
  }

  endUpload(): void {
    this.uploadsInProgress -= 1;
  }

  uploadsBeingReceived(): number {
    return this.uploadsInProgress;
  }

  /** REST upload: a name is unique per file; the same bytes under the same name are a resend and are ignored. */
  storeRestUpload(fileName: string, content: FileContent, mimeType: string | undefined): UploadOutcome {
    const earlier = this.uploaded.find((upload) => upload.fileName === fileName);
    if (earlier) return sameBytes(earlier.content, content) ? 'duplicate-ignored' : 'name-reused';
    this.record({ fileName, mimeType, content, via: 'rest' });
    return 'accepted';
  }

  /** SOAP upload: a repeated `fileID` is ignored. */
  storeSoapUpload(upload: Omit<StoredUpload, 'via' | 'rejectedReason'>): UploadOutcome {
    if (upload.fileID !== undefined && this.uploaded.some((earlier) => earlier.fileID === upload.fileID)) return 'duplicate-ignored';
    this.record({ ...upload, via: 'soap' });
    return 'accepted';
  }

  /** The first names of the queue, alphabetically, up to the list limit. */
  listForDownload(): string[] {
    return this.pendingDownloads().slice(0, this.limits.maxListEntries);
  }

  /** Counts an attempt; the file stays in the queue. */
  download(fileName: string): DownloadOutcome {
    const file = this.queue.get(fileName);
    if (!file) return { kind: 'not-found' };
    if (file.downloadAttempts >= this.limits.maxDownloadAttempts) return { kind: 'too-many-attempts' };
    file.downloadAttempts += 1;
    return { kind: 'found', file };
  }

  /** True when the file was in the queue or had already left it (a repeated delete succeeds). */
  delete(fileName: string): boolean {
    if (this.queue.delete(fileName)) {
      this.removedFromQueue.add(fileName);
      return true;
    }
    return this.removedFromQueue.has(fileName);
  }

  /** SOAP: the next files of the queue, alphabetically, within `maxBytes` of content (always at least one file). */
  nextSoapBatch(maxBytes: number): QueuedFile[] {
    const batch: QueuedFile[] = [];
    let bytes = 0;
    for (const name of this.pendingDownloads()) {
      const file = this.queue.get(name)!;
      if (batch.length > 0 && bytes + file.content.size > maxBytes) break;
      batch.push(file);
      bytes += file.content.size;
    }
    return batch;
  }

  /** SOAP: the response carrying these files reached the client, so they leave the queue. */
  markDelivered(files: QueuedFile[]): void {
    for (const file of files) if (this.queue.get(file.fileName) === file) this.delete(file.fileName);
  }

  private record(upload: StoredUpload): void {
    const check = this.limits.rejectUpload;
    const reason = check ? check(recordOf(upload)) : undefined;
    this.uploaded.push(reason === undefined ? upload : { ...upload, rejectedReason: reason });
  }
}

/** The public view of a stored upload: fields left out rather than undefined, the bytes read on first access. */
function recordOf({ content, ...fields }: StoredUpload): UploadedFileRecord {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Omit<StoredUpload, 'content'>;
  let bytes: Buffer | undefined;
  return {
    ...defined,
    size: content.size,
    sha256: content.sha256,
    get content() {
      bytes ??= content.read();
      return bytes;
    },
  };
}

// Plain code-unit order, so that the order does not depend on the machine's locale.
const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const sameBytes = (a: FileContent, b: FileContent) => a.size === b.size && a.sha256 === b.sha256;

// Only uploads are compared by hash; a queued file's hash is never used, so a large file is not read to compute it.
const fileContentOf = (path: string): FileContent => contentFromFile(path, statSync(path).size, '');
