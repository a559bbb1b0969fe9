import { FileExchangeError } from '@paykit/file-exchange';
import { fileExchangeRules } from '@paykit/file-exchange/core';
import sax from 'sax';
import { complexTypes, elements, namespace, type FieldDescriptor } from '../generated/contract.js';
import { Base64Decoder, DecodeArena, type ByteSink } from './base64-decoder.js';
import { SOAP_ENVELOPE_NS } from './write-request.js';

export interface SoapFault {
  faultCode: string;
  faultString: string;
  faultActor?: string;
  detail?: string;
}

export type ParsedResponse = { kind: 'body'; value: Record<string, unknown> } | { kind: 'fault'; fault: SoapFault };

/**
 * Above this announced length the decoder joins pieces instead of reserving memory up front, so that a wrong or
 * hostile Content-Length cannot make the client allocate gigabytes before a byte has arrived.
 */
export const MAX_ARENA_RESPONSE_BYTES = 512 * 1024 * 1024;

/**
 * The most characters of text (names, IDs, parameters, fault strings: everything but base64 content) one response
 * may hold: OUR assumption, far above what a response of at most 1000 files needs, so that a hostile or broken peer
 * gets a MalformedResponse instead of filling the heap.
 */
export const MAX_RESPONSE_TEXT_CHARS = 16 * 1024 * 1024;

/**
 * The most times one element may repeat in its parent: the reference's maximum of the download list (1000 files),
 * from the generated rules. The XSD leaves `file` and `parameter` unbounded; applying the same bound to the
 * parameters of one file is OUR assumption.
 */
export const MAX_REPEATED_ELEMENTS = fileExchangeRules.downloads.listCap;

/** OUR bound on element nesting: the contract's messages nest a handful of levels. */
const MAX_DEPTH = 64;

export interface ReadResponseOptions {
  /** The response's Content-Length, when it has one: base64 fields are then decoded without joining pieces. */
  contentLength?: number | undefined;
  /**
   * Where a base64 field's bytes go instead of memory; the sink's `end()` result becomes the field's value. `parent`
   * is the value of the element holding the field, as read so far (the fields before it, e.g. a file's `fileID`).
   */
  openBinarySink?: ((field: FieldDescriptor, parent: Record<string, unknown>) => ByteSink) | undefined;
  /**
   * Told of each complex element once it is complete and checked (a downloaded `file`, say), before the next one is
   * read: a file written to disk can be made durable while the rest of the response still arrives.
   */
  onComplete?: ((field: FieldDescriptor, value: Record<string, unknown>) => void) | undefined;
}

/** The response is not the XML the contract promises. */
export class MalformedResponse extends Error {
  override readonly name = 'MalformedResponse';
}

type Frame =
  | { kind: 'envelope' }
  | { kind: 'body'; seenChild: boolean }
  | { kind: 'complex'; typeName: string; value: Record<string, unknown>; field?: FieldDescriptor }
  | { kind: 'scalar'; field: FieldDescriptor; text: string }
  | { kind: 'base64'; field: FieldDescriptor; decoder: Base64Decoder }
  | { kind: 'fault'; fault: Partial<SoapFault> }
  | { kind: 'fault-part'; part: keyof SoapFault; text: string }
  /** An element the reader does not need; text inside it goes to `sink` when one is set. */
  | { kind: 'skip'; sink?: (text: string) => void };

const faultParts: Record<string, keyof SoapFault> = {
  faultcode: 'faultCode',
  faultstring: 'faultString',
  faultactor: 'faultActor',
  detail: 'detail',
};

function convert(field: FieldDescriptor, text: string): unknown {
  if (field.kind === 'number') {
    const number = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(number)) throw new MalformedResponse(`<${field.name}> is not a number`);
    return number;
  }
  if (field.kind === 'boolean') {
    const word = text.trim();
    if (word !== 'true' && word !== 'false' && word !== '1' && word !== '0') throw new MalformedResponse(`<${field.name}> is not a boolean`);
    return word === 'true' || word === '1';
  }
  return text;
}

function assign(parent: Frame | undefined, field: FieldDescriptor, value: unknown): void {
  if (parent?.kind !== 'complex') throw new MalformedResponse(`<${field.name}> outside its parent`);
  if (field.maxOccurs > 1) {
    const list = (parent.value[field.name] ??= []) as unknown[];
    const most = Math.min(field.maxOccurs, MAX_REPEATED_ELEMENTS);
    if (list.length >= most) throw new MalformedResponse(`more than ${most} <${field.name}> in <${parent.typeName}>`);
    list.push(value);
  } else {
    if (field.name in parent.value) throw new MalformedResponse(`<${field.name}> appears twice in ${parent.typeName}`);
    parent.value[field.name] = value;
  }
}

function checkRequired(frame: Extract<Frame, { kind: 'complex' }>): void {
  for (const field of complexTypes[frame.typeName]!) {
    const value = frame.value[field.name];
    const count = value === undefined ? 0 : Array.isArray(value) && field.maxOccurs > 1 ? value.length : 1;
    if (count < field.minOccurs) throw new MalformedResponse(`required <${field.name}> is missing in ${frame.typeName}`);
  }
}

/** Whether a value of this complex type can hold bytes (a base64Binary field, at any depth). */
function holdsBytes(typeName: string, seen = new Set<string>()): boolean {
  if (seen.has(typeName)) return false;
  seen.add(typeName);
  return complexTypes[typeName]!.some((f) => f.kind === 'base64Binary' || (f.kind === 'complex' && holdsBytes(f.typeName, seen)));
}

/**
 * The state of one response being read: a stack of frames, one per open element, each knowing what its text and
 * children become. sax calls the `on*` methods; every contract violation throws MalformedResponse at once.
 */
class ResponseReader {
  private readonly stack: Frame[] = [];
  private result: ParsedResponse | undefined;
  private closedEnvelope = false;
  private textChars = 0;

  constructor(
    private readonly outputElement: string,
    private readonly outputType: string,
    private readonly arena: DecodeArena | undefined,
    private readonly openBinarySink: ReadResponseOptions['openBinarySink'],
    private readonly onComplete: ReadResponseOptions['onComplete'] = undefined,
  ) {}

  /** Counts text the reader keeps, refusing a response that would keep more than MAX_RESPONSE_TEXT_CHARS. */
  private keep(text: string): string {
    this.textChars += text.length;
    if (this.textChars > MAX_RESPONSE_TEXT_CHARS) throw new MalformedResponse(`more than ${MAX_RESPONSE_TEXT_CHARS} characters of text besides file content`);
    return text;
  }

  onOpenTag(tag: sax.QualifiedTag): void {
    // The contract nests five deep; unknown elements are skipped, but their nesting must not grow the stack unbounded.
    if (this.stack.length >= MAX_DEPTH) throw new MalformedResponse(`elements nested more than ${MAX_DEPTH} deep`);
    const top = this.stack.at(-1);
    this.stack.push(top ? this.childFrame(top, tag) : this.rootFrame(tag));
  }

  /** Text of the base64 field being read, as its bytes, given around the XML parser (see feedParser). */
  onBase64Bytes(bytes: Buffer): void {
    const top = this.stack.at(-1);
    if (top?.kind !== 'base64') throw new Error('base64 text outside a base64 field');
    try {
      top.decoder.writeBytes(bytes);
    } catch (error) {
      throw badBase64(top.field, error);
    }
  }

  /** Whether the element being read is a base64 field: its text may then bypass the XML parser (see feedParser). */
  get inBase64(): boolean {
    return this.stack.at(-1)?.kind === 'base64';
  }

  private justOpenedBase64 = false;

  /** Whether a base64 field was opened since the last call (its opening tag is what the parser last read). */
  openedBase64(): boolean {
    const opened = this.justOpenedBase64;
    this.justOpenedBase64 = false;
    return opened;
  }

  onText(text: string): void {
    const top = this.stack.at(-1);
    if (!top) return;
    if (top.kind === 'scalar' || top.kind === 'fault-part') top.text += this.keep(text);
    else if (top.kind === 'skip') top.sink?.(this.keep(text));
    else if (top.kind === 'base64') {
      try {
        top.decoder.write(text);
      } catch (error) {
        throw badBase64(top.field, error);
      }
    }
  }

  onCloseTag(): void {
    const frame = this.stack.pop()!;
    const parent = this.stack.at(-1);
    switch (frame.kind) {
      case 'envelope':
        this.closedEnvelope = true;
        return;
      case 'body':
        if (!this.result) throw new MalformedResponse('the Body is empty');
        return;
      case 'complex':
        checkRequired(frame);
        if (frame.field) {
          assign(parent, frame.field, frame.value);
          this.onComplete?.(frame.field, frame.value);
        }
        else this.result = { kind: 'body', value: frame.value };
        return;
      case 'scalar':
        assign(parent, frame.field, convert(frame.field, frame.text));
        return;
      case 'base64':
        assign(parent, frame.field, endBase64(frame));
        return;
      case 'fault-part':
        if (parent?.kind === 'fault') parent.fault[frame.part] = frame.part === 'detail' ? frame.text.trim() : frame.text;
        return;
      case 'fault':
        this.result = { kind: 'fault', fault: completeFault(frame.fault) };
        return;
      case 'skip':
        return;
    }
  }

  /** The parsed response, once the whole body was read. */
  finish(): ParsedResponse {
    if (!this.closedEnvelope) {
      throw new MalformedResponse(this.stack.length === 0 ? 'the response is empty' : 'the response ends before the Envelope is closed');
    }
    if (!this.result) throw new MalformedResponse('the Envelope has no Body');
    return this.result;
  }

  private rootFrame(tag: sax.QualifiedTag): Frame {
    if (tag.uri !== SOAP_ENVELOPE_NS || tag.local !== 'Envelope') throw new MalformedResponse(`the root element <${tag.name}> is not a SOAP 1.1 Envelope`);
    return { kind: 'envelope' };
  }

  private childFrame(top: Frame, tag: sax.QualifiedTag): Frame {
    switch (top.kind) {
      case 'envelope':
        if (tag.uri === SOAP_ENVELOPE_NS && tag.local === 'Body') return { kind: 'body', seenChild: false };
        if (tag.uri === SOAP_ENVELOPE_NS && tag.local === 'Header') return { kind: 'skip' };
        throw new MalformedResponse(`unexpected <${tag.name}> in the Envelope`);
      case 'body':
        return this.bodyChildFrame(top, tag);
      case 'complex':
        return this.fieldFrame(top, tag);
      case 'fault': {
        const part = tag.uri === '' ? faultParts[tag.local] : undefined;
        return part ? { kind: 'fault-part', part, text: '' } : { kind: 'skip' };
      }
      case 'fault-part':
        return { kind: 'skip', sink: (text) => (top.text += text) };
      case 'skip':
        return top.sink ? { kind: 'skip', sink: top.sink } : { kind: 'skip' };
      default:
        throw new MalformedResponse(`unexpected <${tag.name}> inside <${top.field.name}>, which holds text`);
    }
  }

  /** The one element of the Body: the operation's response element or a Fault. */
  private bodyChildFrame(body: Extract<Frame, { kind: 'body' }>, tag: sax.QualifiedTag): Frame {
    if (body.seenChild) throw new MalformedResponse(`more than one element in the Body`);
    body.seenChild = true;
    if (tag.uri === SOAP_ENVELOPE_NS && tag.local === 'Fault') return { kind: 'fault', fault: {} };
    if (tag.uri === namespace && tag.local === this.outputElement) return { kind: 'complex', typeName: this.outputType, value: {} };
    throw new MalformedResponse(`expected <${this.outputElement}> in ${namespace}, got <${tag.local}> in ${tag.uri || 'no namespace'}`);
  }

  /** A child of a complex value: one of its type's fields, or an unknown element skipped (a newer server's). */
  private fieldFrame(parent: Extract<Frame, { kind: 'complex' }>, tag: sax.QualifiedTag): Frame {
    const field = tag.uri === namespace || tag.uri === '' ? complexTypes[parent.typeName]!.find((f) => f.name === tag.local) : undefined;
    if (!field) return { kind: 'skip' };
    if (field.kind === 'complex') return { kind: 'complex', typeName: field.typeName, value: {}, field };
    if (field.kind === 'base64Binary') {
      this.justOpenedBase64 = true;
      return { kind: 'base64', field, decoder: new Base64Decoder(this.arena, this.openBinarySink?.(field, parent.value)) };
    }
    return { kind: 'scalar', field, text: '' };
  }
}

function endBase64(frame: Extract<Frame, { kind: 'base64' }>): unknown {
  try {
    return frame.decoder.end();
  } catch (error) {
    throw badBase64(frame.field, error);
  }
}

/** A decoding error is the response's fault; a sink's (a full disk) is not, and goes up as it is. */
function badBase64(field: FieldDescriptor, error: unknown): unknown {
  return error instanceof FileExchangeError ? error : new MalformedResponse(`<${field.name}>: ${(error as Error).message}`);
}

function completeFault(fault: Partial<SoapFault>): SoapFault {
  const { faultCode, faultString } = fault;
  if (faultCode === undefined || faultString === undefined) throw new MalformedResponse('a Fault without faultcode or faultstring');
  return { ...fault, faultCode: faultCode.trim(), faultString };
}

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SEMICOLON = 0x3b;

/**
 * Feeds a response to the parser, all but the text of base64 fields: once the parser has opened a base64 field and
 * stands in its text, the bytes up to the next `<` (the field's end, or a comment or CDATA, which go back to the
 * parser) or `&` (an entity: to the parser, then back) go to the field's decoder as they are. A file's base64 is
 * most of a response, and the parser's character-by-character walk over it took more CPU than the TLS and the disk
 * together (a 128 MiB download was 4.3x curl's time). Everything else, the markup and the other fields' text, goes
 * through the parser (UTF-8 decoded as it streams; not UTF-8 is a MalformedResponse).
 */
async function feedParser(body: AsyncIterable<Uint8Array>, parser: sax.SAXParser, reader: ResponseReader): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const feed = (bytes: Buffer) => {
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch {
      throw new MalformedResponse('the response is not valid UTF-8');
    }
    if (text !== '') parser.write(text);
  };
  let raw = false;
  for await (const piece of body) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    let at = 0;
    while (at < chunk.length) {
      if (raw) {
        const lt = chunk.indexOf(LT, at);
        const amp = chunk.indexOf(AMP, at);
        const stop = amp !== -1 && (lt === -1 || amp < lt) ? amp : lt;
        const end = stop === -1 ? chunk.length : stop;
        if (end > at) reader.onBase64Bytes(chunk.subarray(at, end));
        if (stop === -1) break;
        at = stop;
        raw = false;
      }
      // Markup (or an entity) goes to the parser up to the end of its tag (or of the entity); then, if the parser
      // stands in a base64 field's text, its bytes go around it again.
      const entity = chunk[at] === AMP;
      const close = chunk.indexOf(entity ? SEMICOLON : GT, at);
      const end = close === -1 ? chunk.length : close + 1;
      feed(chunk.subarray(at, end));
      at = end;
      // Only right after the field's opening tag, or an entity in its text, is the parser known to stand in the text
      // (after a comment or CDATA inside the field, the rest of it goes through the parser).
      raw = close !== -1 && reader.inBase64 && (entity || reader.openedBase64());
    }
  }
  feed(Buffer.alloc(0));
  try {
    decoder.decode();
  } catch {
    throw new MalformedResponse('the response is not valid UTF-8');
  }
}

/**
 * Reads a SOAP 1.1 response body as it streams in: the expected document/literal element, checked against the
 * generated contract (unknown child elements are skipped so that a newer server does not break an older client), or
 * a Fault. base64 fields are decoded piece by piece; nothing else of the message is kept.
 */
export async function readResponse(body: AsyncIterable<Uint8Array>, outputElement: string, options: ReadResponseOptions = {}): Promise<ParsedResponse> {
  const outputType = elements[outputElement];
  if (!outputType) throw new Error(`no element ${outputElement} in the generated contract`);
  const { contentLength, openBinarySink, onComplete } = options;
  const useArena =
    openBinarySink === undefined && contentLength !== undefined && contentLength > 0 && contentLength <= MAX_ARENA_RESPONSE_BYTES && holdsBytes(outputType);
  const reader = new ResponseReader(outputElement, outputType, useArena ? DecodeArena.forResponseLength(contentLength) : undefined, openBinarySink, onComplete);
  // Position tracking stays on: without it sax never flushes a long text node, and a file's base64 would pile up
  // in one string instead of reaching the decoder in pieces of at most 64 KiB.
  const parser = sax.parser(true, { xmlns: true, position: true });
  parser.onerror = (error) => {
    throw new MalformedResponse(`not well-formed XML: ${error.message.split('\n')[0]}`);
  };
  parser.onopentag = (tag) => reader.onOpenTag(tag as sax.QualifiedTag);
  parser.ontext = (text) => reader.onText(text);
  parser.oncdata = parser.ontext;
  parser.onclosetag = () => reader.onCloseTag();
  await feedParser(body, parser, reader);
  const result = reader.finish();
  parser.close();
  return result;
}
