import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileExchangeSoapContract, readSoapContract } from '@paykit/contracts';
import { validateXML } from 'xmllint-wasm';
// The descriptors of the WSDL's messages, generated here by the generator that writes the SOAP client's own (which
// keeps them internal): what each message holds.
import { complexTypes, elements, operations, type FieldDescriptor } from './generated/contract.js';

export type SoapOperationName = keyof typeof operations;
export const soapOperationNames = Object.keys(operations) as SoapOperationName[];

const require = createRequire(import.meta.url);
const soapPackage = dirname(require.resolve(`${fileExchangeSoapContract.clientPackage.name}/package.json`));
/** The contract the SOAP package ships (generated from the registry's WSDL and drift-checked) and its message schemas. */
const shipped = await readSoapContract(join(soapPackage, 'wsdl', basename(fileExchangeSoapContract.wsdl)));
const messageSchemas = shipped.schemas
  .filter((schema) => schema.declares)
  .map((schema) => ({ fileName: basename(schema.file), contents: readFileSync(schema.file, 'utf8') }));

function sampleString(field: { name: string; patterns?: readonly RegExp[]; enumeration?: readonly string[]; minLength?: number; maxLength?: number }): string {
  if (field.enumeration?.[0] !== undefined) return field.enumeration[0];
  const candidates = [`${field.name}-sample-1`, `${field.name}_sample_1.txt`, 'SAMPLE1', '1'];
  for (const candidate of candidates) {
    const sized = candidate.padEnd(field.minLength ?? 0, '0').slice(0, field.maxLength ?? 255);
    if ((field.patterns ?? []).every((p) => p.test(sized))) return sized;
  }
  throw new Error(`No sample value satisfies the patterns of ${field.name}`);
}

function sampleField(field: FieldDescriptor): unknown {
  if (field.kind === 'complex') return sampleOf(field.typeName);
  if (field.kind === 'base64Binary') return new TextEncoder().encode(`${field.name} bytes ✓\n`);
  if (field.kind === 'number') return 1;
  if (field.kind === 'boolean') return true;
  return sampleString(field);
}

/** A value of a complex type with every field present (one element for repeated ones), valid against the XSD. */
export function sampleOf(typeName: string): Record<string, unknown> {
  const fields = complexTypes[typeName];
  if (!fields) throw new Error(`No complex type ${typeName}`);
  return Object.fromEntries(fields.map((field) => [field.name, field.maxOccurs > 1 ? [sampleField(field)] : sampleField(field)]));
}

/** The sample request of an operation, built from the contract's descriptors (no operation is named). */
export function sampleInput(operation: SoapOperationName): Record<string, unknown> {
  const typeName = elements[operations[operation].input];
  if (!typeName) throw new Error(`No type for the input of ${operation}`);
  return sampleOf(typeName);
}

/** Names of the elements of complex type in an operation's response: where extra elements may appear. */
export function complexElementNames(operation: SoapOperationName): string[] {
  const names = new Set<string>([operations[operation].output]);
  const visit = (typeName: string) => {
    for (const field of complexTypes[typeName] ?? []) {
      if (field.kind === 'complex' && !names.has(field.name)) {
        names.add(field.name);
        visit(field.typeName);
      }
    }
  };
  visit(elements[operations[operation].output] ?? '');
  return [...names];
}

/**
 * The message element inside a SOAP envelope's Body, as a document of its own: the namespace declarations of the
 * envelope are copied onto it so that its prefixes still resolve.
 */
export function bodyMessage(envelope: string): string {
  const body = /<([\w.-]+:)?Body\b[^>]*>([\s\S]*)<\/\1?Body>/.exec(envelope);
  if (!body) throw new Error('No SOAP Body in the message');
  const inner = (body[2] ?? '').trim();
  const declarations = [...envelope.matchAll(/\sxmlns(:[\w.-]+)?="[^"]*"/g)].map((m) => m[0]);
  const start = /^<([\w.:-]+)([^>]*?)(\/?)>/.exec(inner);
  if (!start) throw new Error('The SOAP Body holds no element');
  const own = start[2] ?? '';
  const missing = [...new Set(declarations)].filter((d) => !own.includes(d.trim().split('=')[0]!));
  return `<${start[1]}${own}${missing.join('')}${start[3]}>${inner.slice(start[0].length)}`;
}

/** Problems of a message element against the XSD (empty when valid), with xmllint (WebAssembly, offline). */
export async function xsdProblems(message: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'message.xml', contents: message }],
    schema: messageSchemas,
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const foreignNamespace = 'urn:paykit:contract-tests:added-later';

/**
 * Elements the client does not know, added at every depth of a SOAP response: a SOAP Header entry, and in each
 * element of complex type, one element in a foreign namespace first and one in the message's namespace last.
 */
export function withExtraElements(envelope: string, complexNames: readonly string[], messageNamespace: string): { xml: string; added: number } {
  let added = 0;
  const extraFirst = () => `<later:addedFirst xmlns:later="${foreignNamespace}" level="${++added}"><later:inner>data</later:inner></later:addedFirst>`;
  const extraLast = () => `<addedLast xmlns="${messageNamespace}">value ${++added}</addedLast>`;
  let xml = envelope;
  for (const name of complexNames) {
    const open = new RegExp(`<((?:[\\w.-]+:)?${name})(\\s[^>]*?)?(/?)>`, 'g');
    xml = xml.replace(open, (_, qualified: string, attributes: string | undefined, selfClosing: string) =>
      selfClosing
        ? `<${qualified}${attributes ?? ''}>${extraFirst()}${extraLast()}</${qualified}>`
        : `<${qualified}${attributes ?? ''}>${extraFirst()}`,
    );
    const close = new RegExp(`</((?:[\\w.-]+:)?${name})>`, 'g');
    xml = xml.replace(close, (whole) => `${extraLast()}${whole}`);
  }
  const header = /<(([\w.-]+:)?)Body\b/.exec(xml);
  if (header && !/<([\w.-]+:)?Header\b/.test(xml)) {
    const prefix = header[1] ?? '';
    xml = xml.replace(header[0], `<${prefix}Header><later:notice xmlns:later="${foreignNamespace}">added ${++added}</later:notice></${prefix}Header>${header[0]}`);
  }
  return { xml, added };
}
