export { generateTestCertificates, type TestCertificates } from './certificates.js';
export { startFileExchangeMock, type FileExchangeMock, type FileExchangeMockOptions } from './mock.js';
export {
  FILE_NAME_PATTERN,
  type DownloadFileInput,
  type FileExchangeStore,
  type InjectedFailure,
  type MockOperation,
  type UploadedFileRecord,
} from './store.js';
export { SOAP_NAMESPACE } from './soap-namespace.js';
