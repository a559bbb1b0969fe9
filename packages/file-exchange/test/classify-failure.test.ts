import { describe, expect, it } from 'vitest';
import { errorForStatus, errorForThrown } from '../src/classify-failure.js';
import type { FileExchangeOperation } from '../src/index.js';

describe('errorForStatus follows the reference error table', () => {
  const table: Array<[FileExchangeOperation, number, string]> = [
    ['uploadFile', 400, 'FileNameAlreadyUsedError'],
    ['uploadFile', 403, 'AccessRefusedError'],
    ['uploadFile', 404, 'FileNameNotAcceptedError'],
    ['uploadFile', 500, 'TransientFailureError'],
    ['uploadFile', 503, 'UploadInProgressError'],
    ['uploadFile', 418, 'UnexpectedResponseError'],
    ['listFilesForDownload', 403, 'AccessRefusedError'],
    ['listFilesForDownload', 404, 'UnexpectedResponseError'],
    ['listFilesForDownload', 500, 'TransientFailureError'],
    ['downloadFile', 403, 'AccessRefusedError'],
    ['downloadFile', 404, 'FileNotInListError'],
    ['downloadFile', 429, 'DownloadLimitReachedError'],
    ['downloadFile', 500, 'TransientFailureError'],
    ['deleteFile', 403, 'AccessRefusedError'],
    ['deleteFile', 404, 'FileNotInListError'],
    ['deleteFile', 500, 'TransientFailureError'],
    ['deleteFile', 502, 'UnexpectedResponseError'],
  ];
  it.each(table)('%s %i -> %s', (operation, status, name) => {
    const error = errorForStatus({ operation, fileName: 'A.csv' }, status);
    expect(error.name).toBe(name);
    expect(error).toMatchObject({ operation, status, fileName: 'A.csv' });
    expect(error.message).toContain(String(status));
  });
});

describe('errorForThrown', () => {
  it.each([
    { title: 'connection refused', thrown: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), name: 'TransientFailureError' },
    { title: 'socket closed', thrown: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), name: 'TransientFailureError' },
    { title: 'fetch wrapper', thrown: new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }), name: 'TransientFailureError' },
    { title: 'untrusted server', thrown: Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }), name: 'TlsHandshakeError' },
    { title: 'a local file that cannot be read', thrown: Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', syscall: 'read', path: '/data/out.csv' }), name: 'LocalFileError' },
    { title: 'a proxy refusing the tunnel', thrown: new Error('Proxy refused the tunnel: 407 Proxy Authentication Required'), name: 'ProxyRefusedError' },
    { title: 'certificate refused by the server', thrown: Object.assign(new Error('tlsv13 alert certificate required'), { code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' }), name: 'TlsHandshakeError' },
  ])('$title -> $name', ({ thrown, name }) => {
    expect(errorForThrown({ operation: 'listFilesForDownload' }, thrown).name).toBe(name);
  });
});
