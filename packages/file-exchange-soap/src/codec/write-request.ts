import { complexTypes, elements, namespace, qualifiedChildren, type FieldDescriptor } from '../generated/contract.js';
import { escapeAttribute, escapeText } from './xml-text.js';

export const SOAP_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

/** Bytes are kept apart from the markup so that they are base64-encoded while streaming, never as one big string. */
export type RequestSegment = string | Uint8Array;

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
      else if (field.kind === 'base64Binary') out.push(item as Uint8Array);
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
  /** Can be called again for a resend. */
  chunks(): AsyncGenerator<Buffer>;
}

export function encodeRequest(segments: RequestSegment[]): EncodedRequest {
  let byteLength = 0;
  for (const segment of segments) {
    byteLength += typeof segment === 'string' ? Buffer.byteLength(segment) : Math.ceil(segment.byteLength / 3) * 4;
  }
  return {
    byteLength,
    async *chunks() {
      for (const segment of segments) {
        if (typeof segment === 'string') {
          yield Buffer.from(segment);
          continue;
        }
        for (let start = 0; start < segment.byteLength; start += BASE64_SLICE) {
          const slice = segment.subarray(start, Math.min(start + BASE64_SLICE, segment.byteLength));
          yield Buffer.from(Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength).toString('base64'));
        }
      }
    },
  };
}
