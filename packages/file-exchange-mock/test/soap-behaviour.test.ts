import { describe, expect, test } from 'vitest';
import { freshMockPerTest, send, soapEnvelope, soapHeaders, validateAgainstXsd } from './helpers.js';

/** The `file` elements of a downloadFilesResponse, read with regular expressions (the XSD check covers the shape). */
function filesIn(xml: string): Array<{ fileID: string; fileName?: string; content: string }> {
  return [...xml.matchAll(/<(?:\w+:)?file>(.*?)<\/(?:\w+:)?file>/g)].map(([, inner]) => {
    const field = (name: string) => new RegExp(`<(?:\\w+:)?${name}>(.*?)</(?:\\w+:)?${name}>`).exec(inner!)?.[1];
    return { fileID: field('fileID')!, fileName: field('fileName'), content: Buffer.from(field('fileContent') ?? '', 'base64').toString() };
  });
}

// Every SOAP row of the reference, through raw SOAP 1.1 messages; each request and response is validated
// against FileExchange.xsd inside a SOAP envelope.
describe('stateful SOAP file exchange', () => {
  const env = freshMockPerTest({ soapMaxResponseBytes: 100 });

  async function call(port: 'UploadFile' | 'DownloadFiles', body: string, validateRequest = true) {
    const request = soapEnvelope(body);
    if (validateRequest) expect((await validateAgainstXsd(request)).errors).toEqual([]);
    const response = await send(env.agent, `${env.mock.soapUrl}/${port}`, { method: 'POST', headers: soapHeaders, body: request });
    const xml = response.body.toString();
    return { ...response, xml };
  }

  async function expectValidResponse(xml: string | string[]) {
    expect((await validateAgainstXsd(xml)).errors).toEqual([]);
  }

  const uploadBody = (fields: string) => `<fx:uploadFile>${fields}</fx:uploadFile>`;
  const downloadBody = (queueID: string) => `<fx:downloadFiles><fx:queueID>${queueID}</fx:queueID></fx:downloadFiles>`;

  describe('UploadFile', () => {
    test('every field is stored and the answer is an empty uploadFileResponse with HTTP 200', async () => {
      const response = await call(
        'UploadFile',
        uploadBody(
          '<fx:fileID>ID-1</fx:fileID><fx:fileType>PAYMENTS</fx:fileType><fx:mimeType>text/csv</fx:mimeType>' +
            '<fx:fileName>pay_1.csv</fx:fileName><fx:parameter><fx:name>batch</fx:name><fx:value>7</fx:value></fx:parameter>' +
            `<fx:fileContent>${Buffer.from('a,b\n').toString('base64')}</fx:fileContent>`,
        ),
      );
      expect(response.status).toBe(200);
      expect(response.xml).toMatch(/<(\w+:)?uploadFileResponse[^>]*>\s*<\/(\w+:)?uploadFileResponse>|<(\w+:)?uploadFileResponse[^>]*\/>/);
      await expectValidResponse(response.xml);
      expect(env.mock.store.uploads()).toEqual([
        expect.objectContaining({
          fileID: 'ID-1',
          fileType: 'PAYMENTS',
          mimeType: 'text/csv',
          fileName: 'pay_1.csv',
          parameters: [{ name: 'batch', value: '7' }],
          content: Buffer.from('a,b\n'),
          via: 'soap',
        }),
      ]);
    });

    test('only fileContent is required', async () => {
      const response = await call('UploadFile', uploadBody('<fx:fileContent>aGk=</fx:fileContent>'));
      expect(response.status).toBe(200);
      expect(env.mock.store.uploads()).toEqual([expect.objectContaining({ content: Buffer.from('hi'), via: 'soap' })]);
    });

    test.each([
      ['<fx:fileContent/>', '<fx:fileName>empty.txt</fx:fileName><fx:fileContent/>'],
      ['<fx:fileContent></fx:fileContent>', '<fx:fileName>empty.txt</fx:fileName><fx:fileContent></fx:fileContent>'],
      ['only whitespace in fileContent', '<fx:fileName>empty.txt</fx:fileName><fx:fileContent>\n  </fx:fileContent>'],
    ])('an empty file (%s) is accepted, as the XSD’s base64Binary allows', async (_, fields) => {
      const response = await call('UploadFile', uploadBody(fields));
      expect(response.status, response.xml).toBe(200);
      await expectValidResponse(response.xml);
      expect(env.mock.store.uploads()).toEqual([expect.objectContaining({ fileName: 'empty.txt', content: Buffer.alloc(0), size: 0, via: 'soap' })]);
    });

    test('a repeated fileID is ignored', async () => {
      await call('UploadFile', uploadBody('<fx:fileID>ID-1</fx:fileID><fx:fileContent>aGk=</fx:fileContent>'));
      const again = await call('UploadFile', uploadBody('<fx:fileID>ID-1</fx:fileID><fx:fileContent>aGk=</fx:fileContent>'));
      expect(again.status).toBe(200);
      expect(env.mock.store.uploads()).toHaveLength(1);
    });

    test.each([
      ['without fileContent', '<fx:fileName>a.txt</fx:fileName>', /fileContent is required/],
      ['with a name the service refuses', '<fx:fileName>a b.txt</fx:fileName><fx:fileContent>aGk=</fx:fileContent>', /fileName not acceptable/],
      ['with content that is not base64', '<fx:fileContent>aGk</fx:fileContent>', /not base64/],
    ])('an upload %s is a SOAP fault with HTTP 500, and the XSD refuses it too', async (_, fields, reason) => {
      const request = soapEnvelope(uploadBody(fields));
      expect((await validateAgainstXsd(request)).valid).toBe(false);
      const response = await call('UploadFile', uploadBody(fields), false);
      expect(response.status).toBe(500);
      expect(response.xml).toMatch(/<(\w+:)?Fault>/);
      expect(response.xml).toMatch(reason);
      await expectValidResponse(response.xml);
      expect(env.mock.store.uploads()).toHaveLength(0);
    });

    test('an upload answered 500 was stored, so resending it with its fileID adds nothing', async () => {
      env.mock.store.failNext('soap-upload', { status: 500 });
      const fields = '<fx:fileID>ID-9</fx:fileID><fx:fileContent>aGk=</fx:fileContent>';
      expect((await call('UploadFile', uploadBody(fields))).status).toBe(500);
      expect((await call('UploadFile', uploadBody(fields))).status).toBe(200);
      expect(env.mock.store.uploads()).toHaveLength(1);
    });

    test('an upload whose connection drops was stored; resending it with its fileID adds nothing', async () => {
      env.mock.store.failNext('soap-upload', { dropConnection: true });
      const fields = '<fx:fileID>ID-9</fx:fileID><fx:fileContent>aGk=</fx:fileContent>';
      await expect(call('UploadFile', uploadBody(fields))).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
      expect((await call('UploadFile', uploadBody(fields))).status).toBe(200);
      expect(env.mock.store.uploads()).toHaveLength(1);
    });

    test('REST and SOAP uploads land in one store', async () => {
      await send(env.agent, `${env.mock.restUrl}/uploadedFiles/rest.txt`, { method: 'POST', body: 'r' });
      await call('UploadFile', uploadBody('<fx:fileName>soap.txt</fx:fileName><fx:fileContent>cw==</fx:fileContent>'));
      expect(env.mock.store.uploads().map((u) => [u.fileName, u.via])).toEqual([
        ['rest.txt', 'rest'],
        ['soap.txt', 'soap'],
      ]);
    });
  });

  describe('DownloadFiles', () => {
    test('nothing pending: an empty downloadFilesResponse', async () => {
      const response = await call('DownloadFiles', downloadBody(env.mock.queueId));
      expect(response.status).toBe(200);
      expect(filesIn(response.xml)).toEqual([]);
      await expectValidResponse(response.xml);
    });

    // The four responses are validated together, in one run of libxml2 compiled to WebAssembly (one each took more
    // than 30 s on a 2-core machine at load average 45).
    test('the queue is split into responses by the size limit, then an empty response ends it', async () => {
      // With a 100-byte limit: 60 + 60 do not fit together, 60 + 5 + 4 do.
      for (const name of ['b.txt', 'a.txt', 'c.txt']) env.mock.store.enqueueDownload({ fileName: name, content: Buffer.alloc(60, name[0]) });
      env.mock.store.enqueueDownload({ fileName: 'd.txt', content: Buffer.from('small'), fileType: 'REPORT', mimeType: 'text/plain' });
      env.mock.store.enqueueDownload({ fileName: 'e.txt', content: Buffer.from('tiny') });
      const batches: string[][] = [];
      const responses: string[] = [];
      for (let round = 0; round < 10; round += 1) {
        const response = await call('DownloadFiles', downloadBody(env.mock.queueId));
        expect(response.status).toBe(200);
        responses.push(response.xml);
        const files = filesIn(response.xml);
        if (files.length === 0) break;
        for (const file of files) expect(file.fileID).toMatch(/\S/);
        batches.push(files.map((file) => file.fileName!));
      }
      expect(batches).toEqual([['a.txt'], ['b.txt'], ['c.txt', 'd.txt', 'e.txt']]);
      expect(responses).toHaveLength(4);
      await expectValidResponse(responses);
      expect(env.mock.store.pendingDownloads()).toEqual([]);
    });

    test('a file larger than the limit still comes, alone', async () => {
      env.mock.store.enqueueDownload({ fileName: 'big.bin', content: Buffer.alloc(500, 1), fileID: 'BIG' });
      const response = await call('DownloadFiles', downloadBody(env.mock.queueId));
      expect(filesIn(response.xml).map((file) => file.fileID)).toEqual(['BIG']);
    });

    test('every field of a downloaded file, in the XSD’s order', async () => {
      env.mock.store.enqueueDownload({
        fileName: 'r.csv',
        fileID: 'ID-42',
        fileType: 'REPORT',
        mimeType: 'text/csv',
        parameters: [{ name: 'k', value: 'v' }],
        content: Buffer.from('x,y'),
      });
      const response = await call('DownloadFiles', downloadBody(env.mock.queueId));
      await expectValidResponse(response.xml);
      expect(response.xml).toMatch(
        /<(\w+:)?fileID>ID-42<.*<(\w+:)?fileType>REPORT<.*<(\w+:)?mimeType>text\/csv<.*<(\w+:)?fileName>r\.csv<.*<(\w+:)?parameter><(\w+:)?name>k<.*<(\w+:)?fileContent>eCx5</,
      );
    });

    test('an unknown queueID is a SOAP fault with HTTP 500 and delivers nothing', async () => {
      env.mock.store.enqueueDownload({ fileName: 'a.txt', content: Buffer.from('a') });
      const response = await call('DownloadFiles', downloadBody('OTHER-QUEUE'));
      expect(response.status).toBe(500);
      expect(response.xml).toMatch(/unknown queueID/);
      await expectValidResponse(response.xml);
      expect(env.mock.store.pendingDownloads()).toEqual(['a.txt']);
    });

    test('files of a response lost to a network error are sent again', async () => {
      env.mock.store.enqueueDownload({ fileName: 'a.txt', content: Buffer.from('a'), fileID: 'A' });
      env.mock.store.failNext('soap-download', { dropConnection: true });
      await expect(call('DownloadFiles', downloadBody(env.mock.queueId))).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
      const retry = await call('DownloadFiles', downloadBody(env.mock.queueId));
      expect(filesIn(retry.xml).map((file) => file.fileID)).toEqual(['A']);
    });

    test('afterResponse: a response received in full but not counted as delivered comes again (a duplicate by fileID)', async () => {
      env.mock.store.enqueueDownload({ fileName: 'a.txt', content: Buffer.from('a'), fileID: 'A' });
      env.mock.store.failNext('soap-download', { dropConnection: true, afterResponse: true });
      const first = await call('DownloadFiles', downloadBody(env.mock.queueId));
      const second = await call('DownloadFiles', downloadBody(env.mock.queueId));
      const third = await call('DownloadFiles', downloadBody(env.mock.queueId));
      expect([first, second, third].map((r) => filesIn(r.xml).map((file) => file.fileID))).toEqual([['A'], ['A'], []]);
    });

    test.each([
      [403, false],
      [503, true],
    ])('failNext(soap-download, %i) answers that status once (SOAP fault: %s)', async (status, isFault) => {
      env.mock.store.failNext('soap-download', { status });
      const response = await call('DownloadFiles', downloadBody(env.mock.queueId));
      expect(response.status).toBe(status);
      expect(/Fault/.test(response.xml)).toBe(isFault);
      expect((await call('DownloadFiles', downloadBody(env.mock.queueId))).status).toBe(200);
    });

    test('SOAP downloads drain the same queue the REST list shows', async () => {
      env.mock.store.enqueueDownload({ fileName: 'a.txt', content: Buffer.from('a') });
      await call('DownloadFiles', downloadBody(env.mock.queueId));
      const list = await send(env.agent, `${env.mock.restUrl}/filesForDownload/`);
      expect(list.status).toBe(204);
    });
  });

  test('the WSDL is served at ?wsdl', async () => {
    const response = await send(env.agent, `${env.mock.soapUrl}/UploadFile?wsdl`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toContain('FileExchangeService');
  });

  test('an unknown SOAP address gets 404', async () => {
    const response = await send(env.agent, `${env.mock.soapUrl}/Other`, { method: 'POST', headers: soapHeaders, body: soapEnvelope('') });
    expect(response.status).toBe(404);
  });
});
