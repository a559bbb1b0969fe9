import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { encodeRequest, writeRequest, type RequestSegment } from '../src/codec/write-request.js';
import type { DownloadFiles, UploadFile } from '../src/index.js';

const xsdPath = fileURLToPath(new URL('../wsdl/FileExchange.xsd', import.meta.url));

async function bytesOf(segments: RequestSegment[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of encodeRequest(segments).chunks()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The document/literal body element alone, as xmllint validates it against the XSD. */
function bodyElement(envelope: string): string {
  const match = /<soap:Body>([\s\S]*)<\/soap:Body>/.exec(envelope);
  if (!match) throw new Error('no Body');
  return `<?xml version="1.0" encoding="utf-8"?>${match[1]}`;
}

const messages: Array<[string, 'uploadFile' | 'downloadFiles', UploadFile | DownloadFiles]> = [
  ['an upload with content only', 'uploadFile', { fileContent: Buffer.from('x') }],
  [
    'an upload with every field, given in reverse order',
    'uploadFile',
    {
      fileContent: Buffer.from('content'),
      parameter: [{ value: 'v & <w>', name: 'n' }],
      fileName: 'report_2026.csv',
      mimeType: 'text/csv',
      fileType: 'T1',
      fileID: 'id-1',
    },
  ],
  ['a download request', 'downloadFiles', { queueID: 'QUEUE-1' }],
];

describe('writeRequest', () => {
  it.each(messages)('writes %s as a body element the XSD accepts', async (_name, element, value) => {
    const xml = (await bytesOf(writeRequest(element, value))).toString('utf8');
    const result = await validateXML({
      xml: { fileName: 'body.xml', contents: bodyElement(xml) },
      schema: { fileName: 'FileExchange.xsd', contents: await readFile(xsdPath, 'utf8') },
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('writes children in schema order whatever the order of the keys, escaping markup', async () => {
    const xml = (await bytesOf(writeRequest('uploadFile', messages[1]![2]))).toString('utf8');
    const order = [...xml.matchAll(/<(fileID|fileType|mimeType|fileName|parameter|fileContent)>/g)].map((m) => m[1]);
    expect(order).toEqual(['fileID', 'fileType', 'mimeType', 'fileName', 'parameter', 'fileContent']);
    expect(xml).toContain('<parameter><name>n</name><value>v &amp; &lt;w&gt;</value></parameter>');
    expect(xml).toContain(`<fileContent>${Buffer.from('content').toString('base64')}</fileContent>`);
  });

  it.each([0, 1, 2, 3, 49151, 49152, 49153, 200_000])('announces the exact byte length and valid base64 for %i content bytes', async (size) => {
    const content = Buffer.alloc(size, 0xa7);
    // Multi-byte characters in the markup must be counted in bytes, not characters.
    const segments = writeRequest('uploadFile', { fileType: 'Zürich-ü', fileContent: content });
    const bytes = await bytesOf(segments);
    expect(bytes.byteLength).toBe(encodeRequest(segments).byteLength);
    const base64 = /<fileContent>([^<]*)<\/fileContent>/.exec(bytes.toString('utf8'))![1]!;
    expect(Buffer.compare(Buffer.from(base64, 'base64'), content)).toBe(0);
    expect(base64).toBe(content.toString('base64'));
  });

  it('can be encoded twice for a resend', async () => {
    const encoded = encodeRequest(writeRequest('downloadFiles', { queueID: 'Q' }));
    const first: Buffer[] = [];
    const second: Buffer[] = [];
    for await (const chunk of encoded.chunks()) first.push(chunk);
    for await (const chunk of encoded.chunks()) second.push(chunk);
    expect(Buffer.concat(second).equals(Buffer.concat(first))).toBe(true);
  });
});
