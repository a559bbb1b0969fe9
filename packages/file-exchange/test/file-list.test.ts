import { describe, expect, it } from 'vitest';
import { parsePlainFileList, parseXmlFileList } from '../src/index.js';

describe('parsePlainFileList', () => {
  it.each([
    { body: '', names: [] },
    { body: 'A.csv\n', names: ['A.csv'] },
    { body: 'A.csv\nB.xml', names: ['A.csv', 'B.xml'] },
    { body: 'A.csv\r\nB.xml\r\n', names: ['A.csv', 'B.xml'] },
    { body: '\nA.csv\n\n  B.xml  \n', names: ['A.csv', 'B.xml'] },
  ])('$body', ({ body, names }) => {
    expect(parsePlainFileList(body)).toEqual(names);
  });
});

describe('parseXmlFileList', () => {
  const ns = 'urn:paykit:file-exchange:v1';
  it.each([
    { title: 'empty root', body: `<downloadFileList xmlns="${ns}"/>`, names: [] },
    {
      title: 'one file element with several names (the reference)',
      body: `<?xml version="1.0"?><downloadFileList xmlns="${ns}"><file><fileName>A.csv</fileName><fileName>B.xml</fileName></file></downloadFileList>`,
      names: ['A.csv', 'B.xml'],
    },
    {
      title: 'a file element per name, prefixed, with whitespace',
      body: `<f:downloadFileList xmlns:f="${ns}">\n  <f:file>\n    <f:fileName> A.csv </f:fileName>\n  </f:file>\n  <f:file><f:fileName>B.xml</f:fileName></f:file>\n</f:downloadFileList>`,
      names: ['A.csv', 'B.xml'],
    },
    {
      title: 'comments and entities',
      body: `<downloadFileList xmlns="${ns}"><!-- <fileName>ignored</fileName> --><file><fileName>A&#46;csv</fileName></file></downloadFileList>`,
      names: ['A.csv'],
    },
    {
      // String.fromCodePoint would throw a bare "Invalid code point": the name is kept as sent, and is then invalid.
      title: 'a character reference beyond Unicode',
      body: `<downloadFileList xmlns="${ns}"><file><fileName>A&#x110000;.csv</fileName><fileName>B&#1114112;</fileName></file></downloadFileList>`,
      names: ['A&#x110000;.csv', 'B&#1114112;'],
    },
  ])('$title', ({ body, names }) => {
    expect(parseXmlFileList(body)).toEqual(names);
  });
});
