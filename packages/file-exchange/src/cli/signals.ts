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

/**
 * On SIGINT (Ctrl-C), SIGTERM or SIGHUP: pass the signal to the process group of each processing command and wait
 * for them to end (a second signal is passed on too), then remove this run's temporary files and folders (partial
 * downloads, copies being saved, spooled uploads), release the run lock and exit with the conventional 128 + signal
 * number. The file being handled is not deleted from the service (that comes only after its handler succeeded): the
 * next run handles it again. SIGKILL cannot be caught: the next run removes what such a run left (see
 * temporary-files.ts), except the folder of a processing command still running.
 */
export function exitCleanlyOnSignals(): void {
  let first: NodeJS.Signals | undefined;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      stopProcessingCommands(signal);
      if (first !== undefined) return;
      first = signal;
      void processingCommandsEnded().then(() => {
        removeAllTemporariesSync();
        for (const undo of onSignalExit) undo();
        process.exit(128 + constants.signals[signal]);
      });
    });
  }
}
