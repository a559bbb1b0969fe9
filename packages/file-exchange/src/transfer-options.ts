/** How far a file's transfer is; told as data moves (a retried transfer starts again from 0). */
export interface TransferProgress {
  operation: 'uploadFile' | 'downloadFile';
  fileName: string;
  /** Bytes sent or received so far in this try. */
  bytes: number;
  /** The file's size, when known. */
  totalBytes: number | undefined;
}

export interface TransferOptions extends CallOptions {
  /** Told as data moves, for progress output; called often, so keep it cheap. */
  onProgress?: (progress: TransferProgress) => void;
}

/** What every call of the clients takes. */
export interface CallOptions {
  /**
   * Ends the call in any phase (sending, waiting, reading the body, waiting before a retry): it then rejects with
   * AbortedError, whose `cause` is the signal's reason.
   */
  signal?: AbortSignal;
}
