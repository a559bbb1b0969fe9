import { ProtocolError } from './core/errors.js';
import { fileExchangeRules } from './core/rules.js';

/** Format of the download list: `text` is `text/plain` (one name per line), `xml` is the `downloadFileList` document. */
export type FileListFormat = 'text' | 'xml';

export const fileListMediaType: Record<FileListFormat, string> = { text: 'text/plain', xml: 'application/xml' };

export function parsePlainFileList(body: string): string[] {
  return body
    .split('\n')
    .map((line) => line.replace(/\r$/, '').trim())
    .filter((line) => line.length > 0);
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A character reference as its character; one beyond Unicode (`&#x110000;`, which String.fromCodePoint rejects with a
 * bare "Invalid code point") stays as written: the name is then not a valid file name, and is reported as one.
 */
function characterReference(reference: string, code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : reference;
}

function decodeXmlText(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (reference, hex: string) => characterReference(reference, Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (reference, dec: string) => characterReference(reference, Number.parseInt(dec, 10)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => entities[name]!)
    .trim();
}

/**
 * Every `fileName` element of a `downloadFileList`, whatever its namespace prefix, under one `file` element or
 * several (the contract accepts both). The document is small and flat, so a scan replaces an XML parser dependency.
 */
export function parseXmlFileList(body: string): string[] {
  const withoutComments = body.replace(/<!--[\s\S]*?-->/g, '');
  const names: string[] = [];
  for (const match of withoutComments.matchAll(/<(?:[\w.-]+:)?fileName(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w.-]+:)?fileName\s*>/g)) {
    names.push(decodeXmlText(match[1]!.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')));
  }
  return names;
}

/**
 * The largest list body the client reads: the reference's maximum number of names (`listCap`) at 4 KiB each. The
 * 4 KiB per name (markup included) is OUR assumption: the reference sets no length for a name, and a Linux file name
 * is at most 255 bytes. A larger body is refused as it arrives, before it is held whole.
 */
export const maxListBodyBytes = fileExchangeRules.downloads.listCap * 4096;

/** The names of a list body; more than the reference's maximum is a ProtocolError (the peer is not the service). */
export function parseFileList(format: FileListFormat, body: string): string[] {
  // An XML list is a downloadFileList document: any other (a page, an error document) is not an empty queue.
  if (format === 'xml' && !/<(?:[\w.-]+:)?downloadFileList[\s/>]/.test(body)) {
    throw new ProtocolError('listFilesForDownload: the XML answer holds no downloadFileList element: not the service\'s list; refused.', {
      operation: 'listFilesForDownload',
    });
  }
  const names = format === 'xml' ? parseXmlFileList(body) : parsePlainFileList(body);
  const cap = fileExchangeRules.downloads.listCap;
  if (names.length > cap) {
    throw new ProtocolError(`listFilesForDownload: the list holds ${names.length} names, more than the service's maximum of ${cap}; refused.`, {
      operation: 'listFilesForDownload',
    });
  }
  return names;
}
