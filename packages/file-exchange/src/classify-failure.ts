import { refusedCertificateHint } from './core/network-failure.js';
import { fileExchangeRules as rules, isRetriedStatus } from './core/rules.js';
import { describeCall as label, errorForThrown, localFileError } from './core/thrown-error.js';
import {
  AccessRefusedError,
  DownloadLimitReachedError,
  FileExchangeError,
  FileNameAlreadyUsedError,
  FileNameNotAcceptedError,
  FileNotInListError,
  TransientFailureError,
  UnexpectedResponseError,
  UploadInProgressError,
  type FileExchangeOperation,
} from './errors.js';

export { errorForThrown, localFileError, refusedCertificateHint };

type Context = { operation: FileExchangeOperation; fileName?: string };

/** The typed error for a status that is not the operation's success, following the reference's error table. */
export function errorForStatus(context: Context, status: number): FileExchangeError {
  const details = { ...context, status };
  const what = label(context);
  if (isRetriedStatus(status)) return new TransientFailureError(`${what}: the service answered ${status} (internal error).`, details);
  if (status === 403) {
    return new AccessRefusedError(`${what}: access refused (403); check the client certificate and the IP address whitelist.`, details);
  }
  switch (context.operation) {
    case 'uploadFile':
      if (status === 400) return new FileNameAlreadyUsedError(`${what}: the name is already used for a different file (400); choose a new name.`, details);
      if (status === 404) return new FileNameNotAcceptedError(`${what}: the service does not accept this file name (404).`, details);
      if (status === rules.uploads.busyStatus) {
        return new UploadInProgressError(`${what}: another upload is in progress (${status}); upload one file at a time.`, details);
      }
      break;
    case 'listFilesForDownload':
      if (status === 404) return new UnexpectedResponseError(`${what}: 404, the list address is wrong; check the base address (it ends with /services/messaging/rest).`, details);
      break;
    case 'downloadFile':
      if (status === 404) return new FileNotInListError(`${what}: the file is not in the download list (404).`, details);
      if (status === rules.downloads.exhaustedStatus) {
        return new DownloadLimitReachedError(
          `${what}: downloaded more than ${rules.downloads.maxAttemptsPerFile} times (${status}); the service refuses further downloads.`,
          details,
        );
      }
      break;
    case 'deleteFile':
      if (status === 404) return new FileNotInListError(`${what}: not a name of the download list (404); copy it exactly from the list.`, details);
      break;
  }
  return new UnexpectedResponseError(`${what}: unexpected HTTP status ${status}.`, details);
}
