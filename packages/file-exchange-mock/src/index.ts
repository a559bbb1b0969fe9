// Our declarations use Node's types (streams, Buffer, https). This brings them into a merchant's program from the
// @types/node peer dependency, so that they need no `types` setting (and pnpm's layout hides it otherwise).
/// <reference types="node" preserve="true" />
import { soapContract } from './generated/file-exchange-soap/contract.js';

export { generateTestCertificates, type TestCertificates } from './certificates.js';
export { INBOX_QUEUED, INBOX_REFUSED, type InboxEvent } from './inbox.js';
export { startFileExchangeMock, type FileExchangeMock, type FileExchangeMockOptions } from './mock.js';
export { soapPortUrls } from './soap-service.js';
export {
  createFileExchangeMockControl,
  MockControlError,
  type FileExchangeMockControl,
  type FileExchangeMockControlOptions,
} from './control-client.js';
export {
  FILE_NAME_PATTERN,
  type DownloadFileInput,
  type FileExchangeStore,
  type InjectedFailure,
  type MockOperation,
  type UploadedFileRecord,
} from './store.js';

/**
 * The XML namespace of the SOAP messages and of the REST XML list. The reference does not publish the operator's
 * namespace address; this one is our own choice, written in the contracts in specs/.
 */
export const SOAP_NAMESPACE = soapContract.namespace;
