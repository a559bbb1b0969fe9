import { createHash } from 'node:crypto';
import { answer, streamBody, type Behaviour } from './hostile-server.js';
import { soapEnvelope } from './scripted-server.js';

const NS = 'urn:paykit:file-exchange:v1';
const xml = { 'content-type': 'text/xml; charset=utf-8' };

/**
 * A DownloadFiles response holding one file of `block` repeated `repeats` times, streamed as it is encoded: a file
 * of any size (1 GiB for the bench) without the server holding it, which node-soap's mock cannot (it builds one
 * string, and V8 strings stop at 512 MiB). `block`'s length must be a multiple of 3 so that its base64 joins cleanly.
 */
export function streamedSoapFile(fileName: string, block: Buffer, repeats: number): Behaviour {
  if (block.length % 3 !== 0) throw new Error('the block length must be a multiple of 3');
  const encoded = Buffer.from(block.toString('base64'));
  return streamBody(200, xml, function* () {
    yield `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>${fileName}-id</fileID><fileName>${fileName}</fileName><fileContent>`;
    for (let i = 0; i < repeats; i++) yield encoded;
    yield '</fileContent></file></downloadFilesResponse></soap:Body></soap:Envelope>';
  });
}

/** The response that ends a download loop: no file. */
export const emptySoapResponse: Behaviour = answer(200, xml, soapEnvelope(`<downloadFilesResponse xmlns="${NS}"/>`));

/** The SHA-256 of `block` repeated `repeats` times, to check a streamed file without holding it. */
export function repeatedSha256(block: Buffer, repeats: number): string {
  const hash = createHash('sha256');
  for (let i = 0; i < repeats; i++) hash.update(block);
  return hash.digest('hex');
}
