import { constants } from 'node:os';
import { removeAllTemporariesSync } from '../temporary-files.js';
import { processingCommandsEnded, stopProcessingCommands } from './processing-command.js';

/** What must be undone on the way out of a signal, synchronously (the run lock). */
const onSignalExit = new Set<() => void>();

/** Registers `undo` to run before a signal ends the process; returns the function that unregisters it. */
export function undoOnSignal(undo: () => void): () => void {
  onSignalExit.add(undo);
  return () => onSignalExit.delete(undo);
}

/** The reason of the run's abort when a signal stops paykit-files; the AbortedError it ends with carries it as `cause`. */
export class StoppedBySignal extends Error {
  override readonly name = 'StoppedBySignal';
  constructor(readonly signal: NodeJS.Signals) {
    super(`paykit-files received ${signal}`);
  }

  /** The shell's convention: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). */
  get exitStatus(): number {
    return 128 + constants.signals[this.signal];
  }
}

/**
 * How long, once the processing commands have ended, the run is given to unwind from the abort (its calls reject,
 * the ledger lock is released, the client closed) before the process exits anyway: a read of standard input, for
 * one, cannot be aborted.
 */
const unwindGraceMs = 5_000;

/**
 * On SIGINT (Ctrl-C), SIGTERM or SIGHUP: pass the signal to the process group of each processing command, abort the
 * run through `stop` (every call in flight, a retry wait and processAll end with AbortedError; the client is closed
 * as runCli returns), wait for the commands to end (a second signal is passed on too) and for the run to unwind,
 * then remove this run's temporary files and folders (partial downloads, copies being saved, spooled uploads),
 * release the run lock and exit with 128 + the signal number. The file being handled is not deleted from the service
 * (a handler that succeeded is recorded in the ledger, so the next run deletes it without handling it again).
 * SIGKILL cannot be caught: the next run removes what such a run left (see temporary-files.ts), except the folder of
 * a processing command still running.
 */
export function exitCleanlyOnSignals(stop: AbortController, run: Promise<unknown>): void {
  let first: StoppedBySignal | undefined;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      stopProcessingCommands(signal);
      if (first !== undefined) return;
      const stopped = (first = new StoppedBySignal(signal));
      stop.abort(stopped);
      void processingCommandsEnded()
        .then(() => Promise.race([run.then(
          () => undefined,
          () => undefined,
        ), new Promise((resolve) => setTimeout(resolve, unwindGraceMs))]))
        .then(() => {
          removeAllTemporariesSync();
          for (const undo of onSignalExit) undo();
          process.exit(stopped.exitStatus);
        });
    });
  }
}
