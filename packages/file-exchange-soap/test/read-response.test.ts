import { describe, expect, it } from 'vitest';
import { Base64Decoder, DecodeArena } from '../src/codec/base64-decoder.js';
import { MalformedResponse, readResponse, type ParsedResponse } from '../src/codec/read-response.js';

const NS = 'urn:paykit:file-exchange:v1';
const envelope = (body: string, prefix = 'soap') =>
  `<?xml version="1.0" encoding="utf-8"?><${prefix}:Envelope xmlns:${prefix}="http://schemas.xmlsoap.org/soap/envelope/"><${prefix}:Body>${body}</${prefix}:Body></${prefix}:Envelope>`;

/** Feeds the text in pieces of `size` bytes, as a network would. */
async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const read = (xml: string, element = 'downloadFilesResponse', size = 7, contentLength?: number) =>
  readResponse(pieces(xml, size), element, { contentLength });

describe('readResponse', () => {
  const content = Buffer.from('The quick brown fox jumps over the lazy dog, twice over the lazy dog.');
  const file = (extra = '') =>
    `<file><fileID>F1</fileID>${extra}<fileName>a.txt</fileName><fileContent>${content.toString('base64')}</fileContent></file>`;

  const valid: Array<[string, string, ParsedResponse]> = [
    ['an empty response', envelope(`<downloadFilesResponse xmlns="${NS}"/>`), { kind: 'body', value: {} }],
    [
      'a file, children in the default namespace',
      envelope(`<downloadFilesResponse xmlns="${NS}">${file()}</downloadFilesResponse>`),
      { kind: 'body', value: { file: [{ fileID: 'F1', fileName: 'a.txt', fileContent: content }] } },
    ],
    [
      'prefixed elements, a SOAP Header and an unknown element (skipped)',
      `<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/" xmlns:x="${NS}"><e:Header><t>1</t></e:Header><e:Body><x:downloadFilesResponse><x:file><x:fileID>F1</x:fileID><x:futureField><x:deep>1</x:deep></x:futureField><x:fileContent>${content.toString('base64')}</x:fileContent></x:file></x:downloadFilesResponse></e:Body></e:Envelope>`,
      { kind: 'body', value: { file: [{ fileID: 'F1', fileContent: content }] } },
    ],
    [
      'base64 wrapped over lines, in CDATA, and escaped text',
      envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>a&amp;b</fileID><fileContent>\n${content.toString('base64').replace(/(.{10})/g, '$1\r\n')}\n</fileContent></file><file><fileID><![CDATA[<c>]]></fileID><fileContent><![CDATA[${content.toString('base64')}]]></fileContent></file></downloadFilesResponse>`),
      { kind: 'body', value: { file: [{ fileID: 'a&b', fileContent: content }, { fileID: '<c>', fileContent: content }] } },
    ],
    [
      'parameters as a list',
      envelope(`<downloadFilesResponse xmlns="${NS}">${file('<parameter><name>a</name><value>1</value></parameter><parameter><name>b</name><value></value></parameter>')}</downloadFilesResponse>`),
      { kind: 'body', value: { file: [{ fileID: 'F1', fileName: 'a.txt', parameter: [{ name: 'a', value: '1' }, { name: 'b', value: '' }], fileContent: content }] } },
    ],
    [
      'empty files (the XSD allows an empty base64Binary), written both ways',
      envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>E1</fileID><fileContent/></file><file><fileID>E2</fileID><fileContent></fileContent></file></downloadFilesResponse>`),
      { kind: 'body', value: { file: [{ fileID: 'E1', fileContent: Buffer.alloc(0) }, { fileID: 'E2', fileContent: Buffer.alloc(0) }] } },
    ],
    [
      'a SOAP fault with a detail',
      envelope('<soap:Fault><faultcode>soap:Server</faultcode><faultstring>try later</faultstring><detail><code>E1</code> busy</detail></soap:Fault>'),
      { kind: 'fault', fault: { faultCode: 'soap:Server', faultString: 'try later', detail: 'E1 busy' } },
    ],
  ];

  it.each(valid)('reads %s, in pieces of any size, with or without a Content-Length', async (_name, xml, expected) => {
    const exact = Buffer.byteLength(xml);
    // A Content-Length that is too small (a wrong header) must still give the right bytes, only less efficiently.
    for (const contentLength of [undefined, exact, Math.floor(exact / 3)]) {
      for (const size of [1, 3, 7, 64 * 1024]) expect(await read(xml, 'downloadFilesResponse', size, contentLength)).toEqual(expected);
    }
  });

  it('reads base64 text broken by line feeds, entities, a comment and CDATA, whatever the pieces it arrives in', async () => {
    const base64 = content.toString('base64');
    const text = `${base64.slice(0, 8)}&#13;&#10;${base64.slice(8, 20)}\n  <!-- a comment -->${base64.slice(20, 40)}<![CDATA[${base64.slice(40, 60)}]]>${base64.slice(60)}`;
    const xml = envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>${text}</fileContent></file><file><fileID>F2</fileID><fileContent>${base64}</fileContent></file></downloadFilesResponse>`);
    for (const size of [1, 2, 3, 5, 8, 13, 64, 4096]) {
      expect(await read(xml, 'downloadFilesResponse', size)).toEqual({
        kind: 'body',
        value: { file: [{ fileID: 'F1', fileContent: content }, { fileID: 'F2', fileContent: content }] },
      });
    }
  });

  it('decodes every file of a response into one buffer when the length is known, each file a view of it', async () => {
    const xml = envelope(`<downloadFilesResponse xmlns="${NS}">${file()}${file()}</downloadFilesResponse>`);
    const parsed = await read(xml, 'downloadFilesResponse', 100, Buffer.byteLength(xml));
    const [first, second] = (parsed as unknown as { value: { file: Array<{ fileContent: Buffer }> } }).value.file;
    expect(first!.fileContent.equals(content) && second!.fileContent.equals(content)).toBe(true);
    expect(first!.fileContent.buffer).toBe(second!.fileContent.buffer);
  });

  const malformed: Array<[string, string, string]> = [
    ['not XML', 'Service Unavailable', 'not well-formed'],
    ['an empty body', '', 'empty'],
    ['a SOAP 1.2 envelope', `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>`, 'not a SOAP 1.1 Envelope'],
    ['another operation\'s element', envelope(`<uploadFileResponse xmlns="${NS}"/>`), 'expected <downloadFilesResponse>'],
    ['the element in another namespace', envelope('<downloadFilesResponse xmlns="urn:other"/>'), 'expected <downloadFilesResponse>'],
    ['a file without its required fileID', envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileContent>AA==</fileContent></file></downloadFilesResponse>`), 'required <fileID> is missing'],
    ['a file without content', envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>x</fileID></file></downloadFilesResponse>`), 'required <fileContent> is missing'],
    ['fileContent that is not base64', envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>x</fileID><fileContent>not*base64</fileContent></file></downloadFilesResponse>`), 'not base64'],
    ['fileContent cut short', envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>x</fileID><fileContent>QUJD R</fileContent></file></downloadFilesResponse>`), 'cut short'],
    ['fileID given twice', envelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>x</fileID><fileID>y</fileID><fileContent>AA==</fileContent></file></downloadFilesResponse>`), 'appears twice'],
    ['a truncated document', envelope(`<downloadFilesResponse xmlns="${NS}">${file()}</downloadFilesResponse>`).slice(0, 150), 'ends before the Envelope is closed'],
    ['a fault without faultstring', envelope('<soap:Fault><faultcode>soap:Server</faultcode></soap:Fault>'), 'without faultcode or faultstring'],
  ];

  it.each(malformed)('refuses %s with MalformedResponse', async (_name, xml, message) => {
    const error = await read(xml).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponse);
    expect((error as Error).message).toContain(message);
  });

  it('refuses bytes that are not UTF-8', async () => {
    async function* bad() {
      yield Buffer.from(envelope(`<downloadFilesResponse xmlns="${NS}"/>`).replace('Body>', 'Body>'));
      yield Buffer.from([0xff, 0xfe]);
    }
    await expect(readResponse(bad(), 'downloadFilesResponse')).rejects.toThrow('not valid UTF-8');
  });

  it('passes a network error of the body through unchanged', async () => {
    const broken = new Error('socket closed');
    async function* cut() {
      yield Buffer.from(envelope('').slice(0, 40));
      throw broken;
    }
    await expect(readResponse(cut(), 'downloadFilesResponse')).rejects.toBe(broken);
  });
});

describe('Base64Decoder', () => {
  const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 37) % 256));
  const text = bytes.toString('base64');

  it.each([1, 2, 3, 4, 5, 13, 64])('decodes text split into pieces of %i characters', (size) => {
    const decoder = new Base64Decoder();
    for (let i = 0; i < text.length; i += size) decoder.write(text.slice(i, i + size));
    expect(decoder.end()).toEqual(bytes);
  });

  it.each([
    ['padding in the middle', ['QQ==', 'QUJD'], 'after its padding'],
    ['padding in the middle of one piece', ['QQ==QUJD'], 'padding in the middle'],
    ['padding inside a group', ['Q=JD'], 'padding in the middle'],
    ['padding alone', ['===='], 'padding in the middle'],
    ['a foreign character', ['QU-D'], 'not base64'],
    // Node's own decoder takes base64url's characters and skips others: each must still be refused.
    ['an underscore (base64url)', ['QUJD', 'QU_D'], 'not base64'],
    ['a foreign character among the characters kept for the next piece', ['QUJDQ*'], 'not base64'],
    ['a foreign character in a long piece', [`${'QUJD'.repeat(1000)}*${'QUJD'.repeat(1000)}`], 'not base64'],
    ['an entity-like character', ['QUJD&amp;'], 'not base64'],
  ])('refuses %s', (_name, parts, message) => {
    const decoder = new Base64Decoder();
    expect(() => {
      for (const part of parts) decoder.write(part);
      decoder.end();
    }).toThrow(message);
  });

  // The text a response's field gives as bytes (writeBytes) is gathered in 64 KiB slices: a file of several slices, fed
  // in pieces that do not fall on the slices' bounds, with text given as a string (the XML parser's) in between.
  const large = Buffer.from(Array.from({ length: 300_001 }, (_, i) => (i * 7919) % 251));
  const largeText = Buffer.from(large.toString('base64'), 'latin1');
  it.each([1000, 16_384, 65_536, 100_003])('decodes text given as bytes in pieces of %i bytes, in order with text given as strings', (size) => {
    const written: Buffer[] = [];
    const decoder = new Base64Decoder(undefined, { write: (piece) => written.push(Buffer.from(piece)), end: () => Buffer.concat(written) });
    for (let i = 0; i < largeText.length; i += size) {
      // Every third piece as a string, as the parser gives the text after an entity or a comment.
      if ((i / size) % 3 === 2) decoder.write(largeText.toString('latin1', i, i + size));
      else decoder.writeBytes(largeText.subarray(i, i + size));
    }
    const decoded = decoder.end() as Buffer;
    // Compared as bytes (toEqual walks 300,000 of them one by one).
    expect(decoded.length).toBe(large.length);
    expect(decoded.equals(large)).toBe(true);
  });

  it.each([
    ['a byte that is not ASCII', Buffer.from([0xc3, 0xa9])],
    ['a base64url character', Buffer.from('-')],
    ['padding in the middle', Buffer.from('QQ==')],
  ])('refuses %s given as bytes far inside a long text', (_name, bad) => {
    const decoder = new Base64Decoder(undefined, { write: () => undefined, end: () => undefined });
    expect(() => {
      decoder.writeBytes(largeText.subarray(0, 100_000));
      decoder.writeBytes(bad);
      decoder.writeBytes(largeText.subarray(100_000, 200_000));
      decoder.end();
    }).toThrow(/not base64|padding/);
  });

  // Each way a decoded piece can go: to a sink, into the response's arena, or joined from pieces.
  const destinations = {
    sink: () => {
      const written: Buffer[] = [];
      return { decoder: new Base64Decoder(undefined, { write: (piece) => written.push(Buffer.from(piece)), end: () => Buffer.concat(written) }) };
    },
    arena: () => ({ decoder: new Base64Decoder(new DecodeArena(Buffer.alloc(bytes.length + 8))) }),
    pieces: () => ({ decoder: new Base64Decoder() }),
  };
  it.each(Object.keys(destinations) as Array<keyof typeof destinations>)('decodes into %s text wrapped over lines, or white space between pieces, as the plain text', (destination) => {
    const wrapped = text.replace(/.{1,76}/g, '$&\r\n');
    for (const pieces of [[text.slice(0, 10), ' \n', text.slice(10)], [text.slice(0, 7), `\n${text.slice(7)}`], wrapped.match(/[^]{1,13}/g)!, [text.slice(0, 64), '\t', text.slice(64)]]) {
      const { decoder } = destinations[destination]();
      for (const piece of pieces) decoder.write(piece);
      expect(decoder.end()).toEqual(bytes);
    }
  });
});
