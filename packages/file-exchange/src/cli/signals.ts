import { constants } from 'node:os';
import { removeAllTemporariesSync } from '../temporary-files.js';
import { stopProcessingCommands } from './processing-command.js';

/**
 * On SIGINT (Ctrl-C), SIGTERM or SIGHUP: stop the processing command, remove this run's temporary files and folders
 * (partial downloads, copies being saved, spooled uploads), and exit with the conventional 128 + signal number. The
 * file being handled is not deleted from the service (that comes only after its handler succeeded): the next run
 * handles it again. SIGKILL cannot be caught: the next run removes what such a run left (see temporary-files.ts).
 */
export function exitCleanlyOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopProcessingCommands(signal);
      removeAllTemporariesSync();
      process.exit(128 + constants.signals[signal]);
    });
  }
}
