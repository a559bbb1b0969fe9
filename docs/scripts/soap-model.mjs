// Reads a WSDL 1.1 document and the XML schemas it contains or imports into a plain model of the contract:
// operations (with their messages, SOAP action and addresses), global elements, complex and simple types, and for
// every field its type, occurrence and documentation. The SOAP reference page is rendered from this model only.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { childrenNamed, documentationOf, parseXml, resolveQName } from './xml-tree.mjs';

const XS = 'http://www.w3.org/2001/XMLSchema';
const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const SOAP11 = 'http://schemas.xmlsoap.org/wsdl/soap/';

/**
 * @typedef {import('./xml-tree.mjs').XmlElement} XmlElement
 * @typedef {{ uri: string, local: string }} QName
 * @typedef {{ kind: 'element' | 'attribute', name: string, type: QName | null, inlineType?: string,
 *   minOccurs: number, maxOccurs: number | 'unbounded', documentation: string }} Field
 * @typedef {{ name: string, documentation: string, compositor: string, base?: QName, fields: Field[] }} ComplexType
 * @typedef {{ name: string, documentation: string, base: QName | null, facets: { facet: string, value: string }[] }} SimpleType
 * @typedef {{ name: string, documentation: string, type: QName | null, inlineType?: string }} GlobalElement
 * @typedef {{ name: string, documentation: string, portType: string, input: QName | null, output: QName | null,
 *   faults: QName[], soapAction: string | null, style: string | null, addresses: string[] }} Operation
 * @typedef {{ name: string, targetNamespace: string, documentation: string, operations: Operation[],
 *   elements: GlobalElement[], complexTypes: ComplexType[], simpleTypes: SimpleType[] }} SoapContract
 */

/** @param {string | undefined} value */
const occurs = (value, fallback = 1) => (value === undefined ? fallback : value === 'unbounded' ? 'unbounded' : Number(value));

/**
 * Collects the definitions of one schema element (and, recursively, the schema files it imports or includes).
 * @param {XmlElement} schema
 * @param {string} baseDir directory that relative schemaLocation values are resolved against
 * @param {{ elements: GlobalElement[], complexTypes: ComplexType[], simpleTypes: SimpleType[] }} into
 * @param {Set<string>} seen schema files already read
 */
function readSchema(schema, baseDir, into, seen) {
  for (const reference of [...childrenNamed(schema, XS, 'import'), ...childrenNamed(schema, XS, 'include')]) {
    const location = reference.attributes.schemaLocation;
    if (!location) continue;
    const file = resolve(baseDir, location);
    if (seen.has(file)) continue;
    seen.add(file);
    readSchema(parseXml(readFileSync(file, 'utf8')), dirname(file), into, seen);
  }

  /**
   * Reads a complex type definition; anonymous types found in its fields are added as `<owner>.<field>`.
   * @param {XmlElement} node xs:complexType
   * @param {string} name
   */
  const readComplexType = (node, name) => {
    /** @type {Field[]} */
    const fields = [];
    let compositor = 'sequence';
    /** @type {QName | undefined} */
    let base;
    let body = node;
    const content = [...childrenNamed(node, XS, 'complexContent'), ...childrenNamed(node, XS, 'simpleContent')][0];
    const derivation = content && [...childrenNamed(content, XS, 'extension'), ...childrenNamed(content, XS, 'restriction')][0];
    if (derivation) {
      if (derivation.attributes.base) base = resolveQName(derivation, derivation.attributes.base);
      body = derivation;
    }
    /** @param {XmlElement} group */
    const readParticles = (group) => {
      for (const child of group.children) {
        if (child.uri !== XS) continue;
        if (child.local === 'sequence' || child.local === 'all' || child.local === 'choice') {
          compositor = child.local;
          readParticles(child);
        } else if (child.local === 'element') fields.push(readField(child, name, 'element'));
        else if (child.local === 'attribute') fields.push(readField(child, name, 'attribute'));
      }
    };
    readParticles(body);
    into.complexTypes.push({ name, documentation: documentationOf(node), compositor, ...(base ? { base } : {}), fields });
  };

  /**
   * @param {XmlElement} node xs:element or xs:attribute inside a type
   * @param {string} owner name of the type holding the field
   * @param {'element' | 'attribute'} kind
   * @returns {Field}
   */
  const readField = (node, owner, kind) => {
    const ref = node.attributes.ref ? resolveQName(node, node.attributes.ref) : null;
    const name = node.attributes.name ?? ref?.local ?? '(unnamed)';
    const anonymousComplex = childrenNamed(node, XS, 'complexType')[0];
    const anonymousSimple = childrenNamed(node, XS, 'simpleType')[0];
    /** @type {string | undefined} */
    let inlineType;
    if (anonymousComplex) readComplexType(anonymousComplex, (inlineType = `${owner}.${name}`));
    if (anonymousSimple) readSimpleType(anonymousSimple, (inlineType = `${owner}.${name}`));
    const required = kind === 'attribute' ? node.attributes.use === 'required' : true;
    return {
      kind,
      name,
      type: node.attributes.type ? resolveQName(node, node.attributes.type) : ref,
      ...(inlineType ? { inlineType } : {}),
      minOccurs: kind === 'attribute' ? (required ? 1 : 0) : Number(occurs(node.attributes.minOccurs)),
      maxOccurs: kind === 'attribute' ? 1 : occurs(node.attributes.maxOccurs),
      documentation: documentationOf(node),
    };
  };

  /**
   * @param {XmlElement} node xs:simpleType
   * @param {string} name
   */
  const readSimpleType = (node, name) => {
    const restriction = childrenNamed(node, XS, 'restriction')[0];
    into.simpleTypes.push({
      name,
      documentation: documentationOf(node),
      base: restriction?.attributes.base ? resolveQName(restriction, restriction.attributes.base) : null,
      facets: (restriction?.children ?? [])
        .filter((facet) => facet.uri === XS && facet.attributes.value !== undefined)
        .map((facet) => ({ facet: facet.local, value: facet.attributes.value ?? '' })),
    });
  };

  for (const node of childrenNamed(schema, XS, 'complexType')) readComplexType(node, node.attributes.name ?? '(unnamed)');
  for (const node of childrenNamed(schema, XS, 'simpleType')) readSimpleType(node, node.attributes.name ?? '(unnamed)');
  for (const node of childrenNamed(schema, XS, 'element')) {
    const name = node.attributes.name ?? '(unnamed)';
    const anonymous = childrenNamed(node, XS, 'complexType')[0];
    if (anonymous) readComplexType(anonymous, name);
    into.elements.push({
      name,
      documentation: documentationOf(node),
      type: node.attributes.type ? resolveQName(node, node.attributes.type) : null,
      ...(anonymous ? { inlineType: name } : {}),
    });
  }
}

/**
 * @param {string} wsdlFile absolute path of the WSDL
 * @returns {SoapContract}
 */
export function readSoapContract(wsdlFile) {
  const definitions = parseXml(readFileSync(wsdlFile, 'utf8'));
  if (definitions.uri !== WSDL || definitions.local !== 'definitions') throw new Error(`${wsdlFile} is not a WSDL 1.1 document`);

  const schemas = { elements: /** @type {GlobalElement[]} */ ([]), complexTypes: /** @type {ComplexType[]} */ ([]), simpleTypes: /** @type {SimpleType[]} */ ([]) };
  for (const types of childrenNamed(definitions, WSDL, 'types')) {
    for (const schema of childrenNamed(types, XS, 'schema')) readSchema(schema, dirname(wsdlFile), schemas, new Set());
  }

  /** @type {Map<string, QName | null>} message name -> element of its (single, document/literal) part */
  const messageElements = new Map(
    childrenNamed(definitions, WSDL, 'message').map((message) => {
      const part = childrenNamed(message, WSDL, 'part')[0];
      const element = part?.attributes.element ?? part?.attributes.type;
      return [message.attributes.name ?? '', part && element ? resolveQName(part, element) : null];
    }),
  );
  /** @param {XmlElement | undefined} io */
  const elementOf = (io) => (io?.attributes.message ? (messageElements.get(resolveQName(io, io.attributes.message).local) ?? null) : null);

  const bindings = childrenNamed(definitions, WSDL, 'binding');
  const ports = childrenNamed(definitions, WSDL, 'service').flatMap((service) => childrenNamed(service, WSDL, 'port'));

  /** @type {Operation[]} */
  const operations = childrenNamed(definitions, WSDL, 'portType').flatMap((portType) =>
    childrenNamed(portType, WSDL, 'operation').map((operation) => {
      const portTypeName = portType.attributes.name ?? '';
      const name = operation.attributes.name ?? '';
      const matchingBindings = bindings.filter((b) => b.attributes.type && resolveQName(b, b.attributes.type).local === portTypeName);
      const bound = matchingBindings
        .flatMap((b) => childrenNamed(b, WSDL, 'operation'))
        .find((o) => o.attributes.name === name);
      const soapOperation = bound && childrenNamed(bound, SOAP11, 'operation')[0];
      const bindingStyle = matchingBindings.flatMap((b) => childrenNamed(b, SOAP11, 'binding'))[0]?.attributes.style;
      const addresses = ports
        .filter((port) => port.attributes.binding && matchingBindings.some((b) => b.attributes.name === resolveQName(port, port.attributes.binding ?? '').local))
        .flatMap((port) => childrenNamed(port, SOAP11, 'address').map((a) => a.attributes.location ?? ''));
      return {
        name,
        documentation: documentationOf(operation),
        portType: portTypeName,
        input: elementOf(childrenNamed(operation, WSDL, 'input')[0]),
        output: elementOf(childrenNamed(operation, WSDL, 'output')[0]),
        faults: childrenNamed(operation, WSDL, 'fault').map(elementOf).filter((q) => q !== null),
        soapAction: soapOperation?.attributes.soapAction ?? null,
        style: soapOperation?.attributes.style ?? bindingStyle ?? null,
        addresses,
      };
    }),
  );

  return {
    name: definitions.attributes.name ?? '',
    targetNamespace: definitions.attributes.targetNamespace ?? '',
    documentation: documentationOf(definitions),
    operations,
    ...schemas,
  };
}

export const XML_SCHEMA_NAMESPACE = XS;
