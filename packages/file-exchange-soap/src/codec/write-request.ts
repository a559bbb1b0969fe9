import { Readable } from 'node:stream';
import type { ReplayableContent } from '@paykit/file-exchange/core';
import { complexTypes, elements, namespace, qualifiedChildren, type FieldDescriptor } from '../generated/contract.js';
import { escapeAttribute, escapeText } from './xml-text.js';

export const SOAP_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

/**
 * Bytes are kept apart from the markup so that they are base64-encoded while streaming, never as one big string; a
 * file (a path, a stream made replayable) is read and encoded as it is sent, each time the request is sent.
 */
export type RequestSegment = string | Uint8Array | ReplayableContent;

const isReplayable = (segment: RequestSegment): segment is ReplayableContent => typeof segment === 'object' && !(segment instanceof Uint8Array);

function scalarText(field: FieldDescriptor, value: unknown): string {
  if (field.kind === 'boolean') return value ? 'true' : 'false';
  return escapeText(String(value));
}

function writeComplex(typeName: string, value: Record<string, unknown>, out: RequestSegment[]): void {
  for (const field of complexTypes[typeName]!) {
    const raw = value[field.name];
    if (raw === undefined) continue;
    for (const item of field.maxOccurs > 1 ? (raw as unknown[]) : [raw]) {
      out.push(`<${field.name}>`);
      if (field.kind === 'complex') writeComplex(field.typeName, item as Record<string, unknown>, out);
      else if (field.kind === 'base64Binary') out.push(item as Uint8Array | ReplayableContent);
      else out.push(scalarText(field, item));
      out.push(`</${field.name}>`);
    }
  }
}

/**
 * A SOAP 1.1 envelope around one document/literal body element, as segments. Children follow the schema's order,
 * whatever the order of the object's keys. The value must have passed `validateRequest`.
 */
export function writeRequest(elementName: string, value: object): RequestSegment[] {
  const typeName = elements[elementName]!;
  // Qualified children inherit a default namespace; unqualified ones must not, so the body element gets a prefix.
  const open = qualifiedChildren
    ? `<${elementName} xmlns="${escapeAttribute(namespace)}">`
    : `<m:${elementName} xmlns:m="${escapeAttribute(namespace)}">`;
  const close = qualifiedChildren ? `</${elementName}>` : `</m:${elementName}>`;
  const out: RequestSegment[] = [
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NS}"><soap:Body>${open}`,
  ];
  writeComplex(typeName, value as Record<string, unknown>, out);
  out.push(`${close}</soap:Body></soap:Envelope>`);
  return mergeStrings(out);
}

function mergeStrings(segments: RequestSegment[]): RequestSegment[] {
  const merged: RequestSegment[] = [];
  for (const segment of segments) {
    const last = merged.at(-1);
    if (typeof segment === 'string' && typeof last === 'string') merged[merged.length - 1] = last + segment;
    else merged.push(segment);
  }
  return merged;
}

/** Bytes per base64 slice: a multiple of 3, so that slices encode independently and concatenate into valid base64. */
const BASE64_SLICE = 3 * 16 * 1024;

export interface EncodedRequest {
  byteLength: number;
  /**
   * The request's bytes; can be called again for a resend. With `pool`, base64 is written into its buffers, which the
   * consumer gives back (`pool.release`) once it is done with a chunk.
   */
  chunks(pool?: BufferPool): AsyncGenerator<Buffer>;
}

/** Bytes per pooled buffer: the base64 of one 48 KiB slice. */
const POOLED_BYTES = (BASE64_SLICE / 3) * 4;

/**
 * Buffers for the base64 of a request, used again once the socket has taken them. A fresh buffer per slice (a
 * 1 GiB upload makes 22,000 of them) grew a process uploading 160 MiB to a slow server by 70 MiB of memory freed but
 * not given back, where reused ones keep it flat.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  private readonly owners = new WeakMap<ArrayBufferLike, Buffer>();

  constructor(private readonly keep = 96) {}

  take(): Buffer {
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(POOLED_BYTES);
    this.owners.set(buffer.buffer, buffer);
    return buffer;
  }

  /** A chunk (a view of a pooled buffer) the consumer is done with; other chunks are ignored. */
  release(chunk: Buffer): void {
    const buffer = this.owners.get(chunk.buffer);
    if (buffer && this.free.length < this.keep && !this.free.includes(buffer)) this.free.push(buffer);
  }
}

/** The base64 of `bytes` (at most BASE64_SLICE of them), in a pooled buffer when there is a pool. */
function base64Of(bytes: Buffer, start: number, end: number, pool: BufferPool | undefined): Buffer {
  const text = bytes.toString('base64', start, end);
  if (!pool) return Buffer.from(text, 'latin1');
  const out = pool.take();
  return out.subarray(0, out.write(text, 'latin1'));
}

export function encodeRequest(segments: RequestSegment[]): EncodedRequest {
  let byteLength = 0;
  for (const segment of segments) {
    const bytes = typeof segment === 'string' ? Buffer.byteLength(segment) : isReplayable(segment) ? segment.length : segment.byteLength;
    byteLength += typeof segment === 'string' ? bytes : Math.ceil(bytes / 3) * 4;
  }
  return {
    byteLength,
    async *chunks(pool?: BufferPool) {
      for (const segment of segments) {
        if (typeof segment === 'string') yield Buffer.from(segment);
        else if (isReplayable(segment)) yield* encodeContent(segment, pool);
        else {
          const bytes = Buffer.from(segment.buffer, segment.byteOffset, segment.byteLength);
          for (let start = 0; start < bytes.length; start += BASE64_SLICE) yield base64Of(bytes, start, Math.min(start + BASE64_SLICE, bytes.length), pool);
        }
      }
    },
  };
}

/**
 * The pieces of a stream one at a time, each as it was pushed. Not `for await` over the stream: its iterator reads
 * with `read()`, which joins the pieces buffered so far into a new buffer, so a piece read into a buffer the reader
 * uses again never came back to it, and every read took a fresh 1 MiB (a 160 MiB upload to a slow server grew the
 * process by 75 MiB of freed but unreturned memory).
 */
async function* piecesOf(stream: Readable): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  stream.on('data', (piece: Buffer) => {
    queue.push(piece);
    stream.pause();
    notify();
  });
  stream.once('end', () => ((ended = true), notify()));
  stream.once('error', (error) => ((failure = error), notify()));
  for (;;) {
    const piece = queue.shift();
    if (piece !== undefined) {
      yield piece;
      if (queue.length === 0) stream.resume();
      continue;
    }
    if (failure !== undefined) throw failure;
    if (ended) return;
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

/**
 * A file's bytes base64-encoded as they are read: each piece (1 MiB from a file) is encoded whole but for the one or
 * two bytes that do not make a group of three, carried to the next. A piece read into a buffer the reader uses again
 * is given back once encoded (the base64 is a copy).
 */
async function* encodeContent(content: ReplayableContent, pool: BufferPool | undefined): AsyncGenerator<Buffer> {
  const opened = content.open();
  const source = Buffer.isBuffer(opened) ? Readable.from([opened]) : opened;
  const release = (source as { releaseChunk?: (chunk: Buffer) => void }).releaseChunk?.bind(source);
  let carry = Buffer.alloc(0);
  let encoded = 0;
  try {
    for await (const piece of piecesOf(source)) {
      let start = 0;
      if (carry.length > 0) {
        start = Math.min(3 - carry.length, piece.length);
        carry = Buffer.concat([carry, piece.subarray(0, start)]);
        if (carry.length < 3) {
          release?.(piece);
          continue;
        }
        yield base64Of(carry, 0, 3, pool);
        encoded += 3;
        carry = Buffer.alloc(0);
      }
      const whole = start + Math.floor((piece.length - start) / 3) * 3;
      // In slices of 48 KiB, each into a pooled buffer: the base64 string of a slice is short-lived and small enough
      // for the young generation.
      for (let slice = start; slice < whole; slice += BASE64_SLICE) {
        const end = Math.min(slice + BASE64_SLICE, whole);
        yield base64Of(piece, slice, end, pool);
        encoded += end - slice;
      }
      carry = Buffer.from(piece.subarray(whole));
      release?.(piece);
    }
    if (carry.length > 0) yield base64Of(carry, 0, carry.length, pool);
    if (encoded + carry.length !== content.length) throw new Error(`the file content gave ${encoded + carry.length} bytes where ${content.length} were announced`);
  } finally {
    if (!Buffer.isBuffer(opened) && !source.destroyed) source.destroy();
  }
}
