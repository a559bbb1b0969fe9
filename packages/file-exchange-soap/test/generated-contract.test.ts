import { describe, expect, expectTypeOf, it } from 'vitest';
import { complexTypes, elements, namespace, operations } from '../src/generated/contract.js';
import type { DownloadedFile, DownloadFiles, UploadFile } from '../src/index.js';

describe('the code generated from the WSDL and XSD', () => {
  it('makes required XSD elements required in the types, and checked by tsc', () => {
    // @ts-expect-error fileContent has minOccurs 1
    const withoutContent: UploadFile = { fileName: 'a.txt' };
    // @ts-expect-error a downloaded file always has its fileID
    const withoutId: DownloadedFile = { fileContent: new Uint8Array(0) };
    // @ts-expect-error queueID has minOccurs 1
    const withoutQueue: DownloadFiles = {};
    expectTypeOf<DownloadedFile['fileID']>().toEqualTypeOf<string>();
    expectTypeOf<UploadFile['fileID']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<UploadFile['fileContent']>().toEqualTypeOf<Uint8Array>();
    // The same rules exist at run time, where the client checks requests before sending them.
    const required = (type: string) => complexTypes[type]!.filter((f) => f.minOccurs > 0).map((f) => f.name);
    expect(required(elements.uploadFile!)).toEqual(['fileContent']);
    expect(required('DownloadedFile')).toEqual(['fileID', 'fileContent']);
    expect(required(elements.downloadFiles!)).toEqual(['queueID']);
    expect([withoutContent, withoutId, withoutQueue]).toHaveLength(3);
  });

  it('describes both operations as the reference gives them: own paths, empty SOAPAction, the request elements', () => {
    expect(namespace).toBe('urn:paykit:file-exchange:v1');
    expect(operations).toMatchObject({
      uploadFile: { path: 'UploadFile', soapAction: '', input: 'uploadFile', output: 'uploadFileResponse' },
      downloadFiles: { path: 'DownloadFiles', soapAction: '', input: 'downloadFiles', output: 'downloadFilesResponse' },
    });
    expect(complexTypes[elements.uploadFile!]!.map((f) => f.name)).toEqual(['fileID', 'fileType', 'mimeType', 'fileName', 'parameter', 'fileContent']);
  });
});
