// The samples of the SOAP reference page, per operation: the HTTP request and response messages, built from the
// XSD through @paykit/contracts' model (every field present, repeated ones once), and the call through the client
// package. The docs tests validate every message against the XSD and type-check every call.
import { addressPath, elementsOf, findComplexType, findElement, findSimpleType, isBuiltIn, XSD_NS } from '@paykit/contracts';
import { tsLiteral } from './rest-samples.mjs';

/**
 * @typedef {import('@paykit/contracts').SoapContractModel} SoapContractModel
 * @typedef {import('@paykit/contracts').QName} QName
 * @typedef {import('@paykit/contracts').ComplexType} ComplexType
 * @typedef {import('@paykit/contracts').SimpleType} SimpleType
 * @typedef {{ kind: 'text', xml: string, ts: string } | { kind: 'complex', fields: { name: string, repeated: boolean, value: Value }[] }} Value
 * @typedef {{ operation: string, request: string, response: string, requestElement: string, responseElement: string, typescript: string }} SoapSample
 */

const envelopeNamespaces = /** @type {Record<string, string>} */ ({
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
});

const fileContent = 'example file content\n';

/** @param {string} text */
const xmlText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export class SoapSampleError extends Error {
  /** @override */
  name = 'SoapSampleError';
}

/**
 * A value of a built-in XSD type, or of a simple type restricting one: enumerations give their first value, and a
 * string must match every pattern of the type (XSD patterns are anchored).
 * @param {SoapContractModel} model @param {QName} type @param {string} field @param {import('@paykit/contracts').Facet[]} facets
 * @returns {Value}
 */
function simpleValue(model, type, field, facets = []) {
  if (!isBuiltIn(type)) {
    const simple = findSimpleType(model, type);
    if (!simple?.base || simple.variety !== 'restriction') throw new SoapSampleError(`${field}: no sample for the type ${type.name}`);
    return simpleValue(model, simple.base, field, [...facets, ...simple.facets]);
  }
  const enumeration = facets.find((f) => f.name === 'enumeration');
  if (enumeration) return { kind: 'text', xml: xmlText(enumeration.value), ts: tsLiteral(enumeration.value) };
  switch (type.name) {
    case 'string':
    case 'normalizedString':
    case 'token': {
      const value = `${field}-1`;
      const failed = facets.filter((f) => f.name === 'pattern' && !new RegExp(`^(?:${f.value})$`, 'u').test(value));
      if (failed.length > 0) throw new SoapSampleError(`${field}: the sample value ${value} does not match the pattern ${failed[0]?.value}`);
      return { kind: 'text', xml: xmlText(value), ts: tsLiteral(value) };
    }
    case 'base64Binary':
      return { kind: 'text', xml: Buffer.from(fileContent).toString('base64'), ts: `Buffer.from(${tsLiteral(fileContent)})` };
    case 'int':
    case 'integer':
    case 'long':
    case 'short':
    case 'decimal':
      return { kind: 'text', xml: '1', ts: '1' };
    case 'boolean':
      return { kind: 'text', xml: 'true', ts: 'true' };
    default:
      throw new SoapSampleError(`${field}: no sample for the built-in type xs:${type.name}`);
  }
}

/**
 * @param {SoapContractModel} model @param {ComplexType} type @param {string} owner
 * @returns {Value}
 */
function complexValue(model, type, owner) {
  if (type.derivation || type.attributes.length > 0 || type.mixed) {
    throw new SoapSampleError(`${owner}: samples of derived types, attributes and mixed content are not supported`);
  }
  return {
    kind: 'complex',
    fields: elementsOf(type.group).map(({ element }) => ({ name: element.name, repeated: element.maxOccurs > 1, value: elementValue(model, element, owner) })),
  };
}

/**
 * @param {SoapContractModel} model
 * @param {import('@paykit/contracts').ElementDeclaration} element
 * @param {string} owner
 * @returns {Value}
 */
function elementValue(model, element, owner) {
  const where = `${owner}.${element.name}`;
  if (element.ref) {
    const target = findElement(model, element.ref);
    if (!target) throw new SoapSampleError(`${where}: no element ${element.ref.name}`);
    return elementValue(model, target, owner);
  }
  if (element.inlineType?.kind === 'complex') return complexValue(model, element.inlineType, where);
  if (element.inlineType?.kind === 'simple') {
    const base = element.inlineType.base;
    if (!base) throw new SoapSampleError(`${where}: no sample for its inline type`);
    return simpleValue(model, base, element.name, element.inlineType.facets);
  }
  if (!element.type) throw new SoapSampleError(`${where}: an element without a type`);
  const complex = element.type.namespace === XSD_NS ? undefined : findComplexType(model, element.type);
  return complex ? complexValue(model, complex, where) : simpleValue(model, element.type, element.name);
}

/** @param {Value} value @param {(name: string) => string} qualify @param {string} indent @returns {string} */
function childrenXml(value, qualify, indent) {
  if (value.kind === 'text') return value.xml;
  if (value.fields.length === 0) return '';
  const lines = value.fields.map(({ name, value: child }) => {
    const tag = qualify(name);
    const inner = childrenXml(child, qualify, `${indent}  `);
    return child.kind === 'complex' && inner ? `${indent}<${tag}>\n${inner}\n${indent}</${tag}>` : `${indent}<${tag}>${inner}</${tag}>`;
  });
  return lines.join('\n');
}

/** @param {Value} value @param {string} indent @returns {string} */
function valueTs(value, indent) {
  if (value.kind === 'text') return value.ts;
  if (value.fields.length === 0) return '{}';
  const inner = `${indent}  `;
  const fields = value.fields.map(({ name, repeated, value: child }) => {
    const ts = valueTs(child, inner);
    return `${inner}${name}: ${repeated ? `[${ts}]` : ts},`;
  });
  return `{\n${fields.join('\n')}\n${indent}}`;
}

/**
 * A SOAP message: the envelope with the element in its Body.
 * @param {SoapContractModel} model @param {QName} elementName @param {string} soapVersion
 */
function message(model, elementName, soapVersion) {
  const element = findElement(model, elementName);
  if (!element) throw new SoapSampleError(`no global element ${elementName.name}`);
  const schema = model.schemas.find((s) => s.declares && s.targetNamespace === elementName.namespace);
  const qualified = schema?.elementFormDefault === 'qualified';
  const value = elementValue(model, element, element.name);
  const inner = childrenXml(value, (name) => (qualified ? `m:${name}` : name), '      ');
  const envelope = envelopeNamespaces[soapVersion];
  if (!envelope) throw new SoapSampleError(`no envelope namespace for SOAP ${soapVersion}`);
  const body = inner
    ? `    <m:${element.name} xmlns:m="${elementName.namespace}">\n${inner}\n    </m:${element.name}>`
    : `    <m:${element.name} xmlns:m="${elementName.namespace}"/>`;
  return {
    value,
    xml: `<?xml version="1.0" encoding="UTF-8"?>\n<soap:Envelope xmlns:soap="${envelope}">\n  <soap:Body>\n${body}\n  </soap:Body>\n</soap:Envelope>`,
  };
}

/**
 * The samples of every operation of a SOAP contract.
 * @param {SoapContractModel} model
 * @param {{ packageName: string }} client
 * @returns {Map<string, SoapSample>}
 */
export function soapSamples(model, client) {
  return new Map(
    model.operations.map((op) => {
      if (!op.input || !op.output) throw new SoapSampleError(`${op.name}: an operation without an input and an output element`);
      const binding = op.bindings[0];
      const soapVersion = binding?.soapVersion ?? '1.1';
      const contentType = soapVersion === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
      const address = op.endpoints.find((e) => e.address !== undefined)?.address;
      const path = address ? addressPath(address) : '/';
      const request = message(model, op.input, soapVersion);
      const response = message(model, op.output, soapVersion);
      const headers = [`POST ${path} HTTP/1.1`, `Content-Type: ${contentType}`, ...(soapVersion === '1.1' ? [`SOAPAction: "${binding?.soapAction ?? ''}"`] : [])];
      const typescript = [
        `import { createFileExchangeSoapClient } from '${client.packageName}';`,
        '',
        'const client = await createFileExchangeSoapClient({',
        '  baseUrl: process.env.PAYKIT_SOAP_BASE_URL!,',
        '  tls: { pfx: process.env.PAYKIT_FILES_CERT_FILE!, passphrase: process.env.PAYKIT_FILES_CERT_PASSWORD! },',
        '});',
        'try {',
        `  const response = await client.call(${tsLiteral(op.name)}, ${valueTs(request.value, '  ')});`,
        '  console.log(response);',
        '} finally {',
        '  await client.close();',
        '}',
      ].join('\n');
      return [
        op.name,
        {
          operation: op.name,
          request: `${headers.join('\n')}\n\n${request.xml}`,
          response: `HTTP/1.1 200 OK\nContent-Type: ${contentType}\n\n${response.xml}`,
          requestElement: op.input.name,
          responseElement: op.output.name,
          typescript,
        },
      ];
    }),
  );
}
