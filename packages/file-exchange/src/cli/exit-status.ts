/** The exit statuses of paykit-files, one meaning each (listed in `usage` and the README). */
export const exitStatus = {
  ok: 0,
  /** The service or a file failed (a download, a delete, the ledger); the file stays queued. */
  failed: 1,
  /** Bad usage or configuration, or input refused before anything was sent. */
  usage: 2,
  /** A processing command (--exec) failed or was killed; its file stays queued, the others were processed. */
  processingCommandFailed: 3,
  /** Another run holds the lock on the same ledger (EX_TEMPFAIL: try again later); nothing was done. */
  locked: 75,
} as const;
