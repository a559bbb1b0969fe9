import { dirname, relative, resolve } from 'node:path';
import type {
  Binding,
  BindingOperation,
  Message,
  Operation,
  Port,
  PortType,
  PortTypeOperation,
  QName,
  Service,
  SoapContractModel,
  SoapVersion,
} from './model.js';
import { readSchemas, type Reference, type SchemaSet } from './read-schema.js';
import {
  childrenOf,
  ContractError,
  documentationOf,
  readXmlFile,
  resolveQName,
  where,
  WSDL_NS,
  WSDL_SOAP11_NS,
  WSDL_SOAP12_NS,
  XSD_NS,
  type XmlNode,
} from './xml.js';

const soapNamespaces: [SoapVersion, string][] = [
  ['1.1', WSDL_SOAP11_NS],
  ['1.2', WSDL_SOAP12_NS],
];

const sameName = (a: QName, b: QName) => a.namespace === b.namespace && a.name === b.name;

/** The first SOAP extension element `local` under `node`, with the SOAP version of its namespace. */
function soapChild(node: XmlNode | undefined, local: string): { version: SoapVersion; node: XmlNode } | undefined {
  for (const [version, namespace] of soapNamespaces) {
    const found = node && childrenOf(node, namespace, local)[0];
    if (found) return { version, node: found };
  }
  return undefined;
}

/** Reads the WSDL's own definitions; QNames naming messages, port types and bindings go to `references`. */
class WsdlReader {
  constructor(private readonly references: Reference[]) {}

  private refer(kind: Reference['kind'], node: XmlNode, written: string | undefined, what: string): QName {
    if (written === undefined) throw new ContractError(`${where(node)}: ${what} is missing`);
    const name = resolveQName(node, written);
    this.references.push({ kind, name, written, source: where(node) });
    return name;
  }

  message(node: XmlNode): Message {
    const parts = childrenOf(node, WSDL_NS, 'part').map((part) => ({
      name: part.attributes.name ?? '',
      ...(part.attributes.element === undefined ? {} : { element: this.refer('element', part, part.attributes.element, 'element') }),
      ...(part.attributes.type === undefined ? {} : { type: resolveQName(part, part.attributes.type) }),
      source: where(part),
    }));
    return { name: node.attributes.name ?? '', parts, source: where(node) };
  }

  portType(node: XmlNode): PortType {
    const operations = childrenOf(node, WSDL_NS, 'operation').map((operation): PortTypeOperation => {
      const message = (direction: 'input' | 'output') => {
        const io = childrenOf(operation, WSDL_NS, direction)[0];
        return io ? { [direction]: this.refer('message', io, io.attributes.message, 'message') } : {};
      };
      return {
        name: operation.attributes.name ?? '',
        documentation: documentationOf(operation),
        ...message('input'),
        ...message('output'),
        faults: childrenOf(operation, WSDL_NS, 'fault').map((fault) => ({
          name: fault.attributes.name ?? '',
          message: this.refer('message', fault, fault.attributes.message, 'message'),
        })),
        source: where(operation),
      };
    });
    return { name: node.attributes.name ?? '', operations, source: where(node) };
  }

  binding(node: XmlNode): Binding {
    const soap = soapChild(node, 'binding');
    const operations = childrenOf(node, WSDL_NS, 'operation').map((operation): BindingOperation => {
      const soapOperation = soapChild(operation, 'operation')?.node;
      // A soap:body without `use` reads as '' so that it is told apart from no soap:body at all.
      const inputBody = soapChild(childrenOf(operation, WSDL_NS, 'input')[0], 'body')?.node;
      const outputBody = soapChild(childrenOf(operation, WSDL_NS, 'output')[0], 'body')?.node;
      const style = soapOperation?.attributes.style ?? soap?.node.attributes.style;
      const soapAction = soapOperation?.attributes.soapAction;
      return {
        name: operation.attributes.name ?? '',
        ...(soapAction === undefined ? {} : { soapAction }),
        ...(style === undefined ? {} : { style }),
        ...(inputBody ? { inputUse: inputBody.attributes.use ?? '' } : {}),
        ...(outputBody ? { outputUse: outputBody.attributes.use ?? '' } : {}),
        source: where(operation),
      };
    });
    return {
      name: node.attributes.name ?? '',
      portType: this.refer('portType', node, node.attributes.type, 'type (the port type)'),
      ...(soap ? { soapVersion: soap.version } : {}),
      operations,
      source: where(node),
    };
  }

  service(node: XmlNode): Service {
    const ports = childrenOf(node, WSDL_NS, 'port').map((port): Port => {
      const address = soapChild(port, 'address');
      return {
        name: port.attributes.name ?? '',
        binding: this.refer('binding', port, port.attributes.binding, 'binding'),
        ...(address ? { address: { soapVersion: address.version, location: address.node.attributes.location ?? '' } } : {}),
        source: where(port),
      };
    });
    return { name: node.attributes.name ?? '', documentation: documentationOf(node), ports, source: where(node) };
  }
}

/** Fails on the first QName that names nothing: a typo in a contract must not read as a type or element of no content. */
function checkReferences(references: Reference[], model: Omit<SoapContractModel, 'operations'>): void {
  const own = (name: QName, list: { name: string }[]) => name.namespace === model.targetNamespace && list.some((d) => d.name === name.name);
  const global = (name: QName, list: { name: string; namespace: string }[]) => list.some((d) => sameName(d, name));
  const resolves: Record<Reference['kind'], (name: QName) => boolean> = {
    type: (name) => name.namespace === XSD_NS || global(name, model.complexTypes) || global(name, model.simpleTypes),
    element: (name) => global(name, model.elements),
    // Global attributes are not read; only those of the XML namespace (xml:lang...) may be referred to.
    attribute: (name) => name.namespace === 'http://www.w3.org/XML/1998/namespace',
    message: (name) => own(name, model.messages),
    portType: (name) => own(name, model.portTypes),
    binding: (name) => own(name, model.bindings),
  };
  for (const reference of references) {
    if (!resolves[reference.kind](reference.name)) {
      const what = reference.kind === 'portType' ? 'port type' : reference.kind;
      throw new ContractError(`${reference.source}: ${what} "${reference.written}" is not declared`);
    }
  }
}

/** Every port type operation, joined with its messages' elements, the bindings that bind it and the ports serving it. */
function joinOperations(model: Omit<SoapContractModel, 'operations'>): Operation[] {
  const elementOf = (message: QName | undefined): QName | undefined =>
    message && model.messages.find((m) => m.name === message.name)?.parts[0]?.element;
  for (const binding of model.bindings) {
    const portType = model.portTypes.find((p) => p.name === binding.portType.name)!;
    for (const operation of binding.operations) {
      if (!portType.operations.some((o) => o.name === operation.name)) {
        throw new ContractError(`${operation.source}: operation ${operation.name} is not in port type ${portType.name}`);
      }
    }
  }
  return model.portTypes.flatMap((portType) =>
    portType.operations.map((operation): Operation => {
      const bindings = model.bindings
        .filter((b) => b.portType.name === portType.name)
        .flatMap((b) => b.operations.filter((o) => o.name === operation.name).map((o) => ({ ...o, binding: b.name, ...(b.soapVersion ? { soapVersion: b.soapVersion } : {}) })));
      const endpoints = model.services.flatMap((service) =>
        service.ports
          .filter((port) => bindings.some((b) => b.binding === port.binding.name))
          .map((port) => ({ service: service.name, port: port.name, binding: port.binding.name, ...(port.address ? { address: port.address.location } : {}) })),
      );
      const input = elementOf(operation.input);
      const output = elementOf(operation.output);
      return {
        name: operation.name,
        documentation: operation.documentation,
        portType: portType.name,
        ...(input ? { input } : {}),
        ...(output ? { output } : {}),
        faults: operation.faults.flatMap((fault) => elementOf(fault.message) ?? []),
        bindings,
        endpoints,
        source: operation.source,
      };
    }),
  );
}

/**
 * Reads a WSDL 1.1 file and the XML schemas it holds or imports (resolved from the WSDL's folder, never fetched) into
 * the contract model. Throws a `ContractError` naming file and line when a file is not well-formed, a name refers to
 * nothing, or the contract uses an XSD construct the model does not represent.
 */
export async function readSoapContract(wsdlPath: string): Promise<SoapContractModel> {
  const path = resolve(wsdlPath);
  const definitions = await readXmlFile(path);
  if (definitions.uri !== WSDL_NS || definitions.local !== 'definitions') {
    throw new ContractError(`${path}: not a WSDL 1.1 document (the root element is <${definitions.local}>, not <wsdl:definitions>)`);
  }
  const loaded = new Set([path]);
  const references: Reference[] = [];
  const inline = childrenOf(definitions, WSDL_NS, 'types').flatMap((types) => childrenOf(types, XSD_NS, 'schema'));
  const schemas: SchemaSet = await readSchemas(inline, loaded, references);
  const reader = new WsdlReader(references);
  const model = {
    wsdlFile: path,
    sources: [...loaded].map((file) => relative(dirname(path), file)),
    name: definitions.attributes.name ?? '',
    targetNamespace: definitions.attributes.targetNamespace ?? '',
    documentation: documentationOf(definitions),
    ...schemas,
    messages: childrenOf(definitions, WSDL_NS, 'message').map((m) => reader.message(m)),
    portTypes: childrenOf(definitions, WSDL_NS, 'portType').map((p) => reader.portType(p)),
    bindings: childrenOf(definitions, WSDL_NS, 'binding').map((b) => reader.binding(b)),
    services: childrenOf(definitions, WSDL_NS, 'service').map((s) => reader.service(s)),
  };
  checkReferences(references, model);
  return { ...model, operations: joinOperations(model) };
}
