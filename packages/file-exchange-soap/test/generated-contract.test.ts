import { Readable } from 'node:stream';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { MalformedResponse, readResponse } from '../src/codec/read-response.js';
import { validateRequest } from '../src/codec/validate-request.js';
import { complexTypes, elements, namespace, operations } from '../src/generated/contract.js';
import type { DownloadedFile, DownloadFiles, UploadFile } from '../src/index.js';

describe('the code generated from the WSDL and XSD', () => {
  it('makes required XSD elements required in the types (checked by tsc: pnpm lint) and at run time', async () => {
    // Each @ts-expect-error fails `pnpm lint` if the generated type stops requiring the field.
    // @ts-expect-error fileContent has minOccurs 1
    const withoutContent: UploadFile = { fileName: 'a.txt' };
    // @ts-expect-error a downloaded file always has its fileID
    const withoutId: DownloadedFile = { fileContent: new Uint8Array(0) };
    // @ts-expect-error queueID has minOccurs 1
    const withoutQueue: DownloadFiles = {};
    expectTypeOf<DownloadedFile['fileID']>().toEqualTypeOf<string>();
    expectTypeOf<UploadFile['fileID']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<UploadFile['fileContent']>().toEqualTypeOf<Uint8Array>();
    // The same objects are refused at run time, where the client checks requests before sending them and responses
    // as they arrive.
    expect(validateRequest('uploadFile', withoutContent)).toEqual([{ path: 'uploadFile.fileContent', message: 'is required' }]);
    expect(validateRequest('downloadFiles', withoutQueue)).toEqual([{ path: 'downloadFiles.queueID', message: 'is required' }]);
    const response = `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><downloadFilesResponse xmlns="${namespace}"><file><fileContent>${Buffer.from(withoutId.fileContent).toString('base64')}</fileContent></file></downloadFilesResponse></s:Body></s:Envelope>`;
    const refused = await readResponse(Readable.from([Buffer.from(response)]), 'downloadFilesResponse').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MalformedResponse);
    expect((refused as Error).message).toBe('required <fileID> is missing in DownloadedFile');
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
