import { dirname, relative, resolve } from 'node:path';
import type {
  ComplexTypeModel,
  ContractModel,
  ElementModel,
  FieldModel,
  OperationModel,
  ScalarKind,
  SimpleTypeModel,
} from './model.js';
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
} from './xml-tree.js';

/** XSD built-ins and the TypeScript kind they map to. Anything else fails loudly instead of becoming `unknown`. */
const builtIns: Record<string, ScalarKind> = {
  string: 'string',
  normalizedString: 'string',
  token: 'string',
  anyURI: 'string',
  ID: 'string',
  NMTOKEN: 'string',
  language: 'string',
  dateTime: 'string',
  date: 'string',
  time: 'string',
  duration: 'string',
  // Arbitrary precision integers and decimals stay strings so that no digit is lost.
  integer: 'string',
  long: 'string',
  decimal: 'string',
  nonNegativeInteger: 'string',
  positiveInteger: 'string',
  unsignedLong: 'string',
  int: 'number',
  short: 'number',
  byte: 'number',
  unsignedInt: 'number',
  unsignedShort: 'number',
  unsignedByte: 'number',
  float: 'number',
  double: 'number',
  boolean: 'boolean',
  base64Binary: 'base64Binary',
};

function unsupported(node: XmlNode, what: string): never {
  throw new ContractError(`${where(node)}: ${what} is not supported by paykit-soap-codegen`);
}

function occurs(node: XmlNode, attribute: 'minOccurs' | 'maxOccurs'): number {
  const value = node.attributes[attribute];
  if (value === undefined) return 1;
  if (value === 'unbounded' && attribute === 'maxOccurs') return Infinity;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new ContractError(`${where(node)}: invalid ${attribute}="${value}"`);
  return number;
}

function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

interface SchemaDocument {
  node: XmlNode;
  targetNamespace: string | undefined;
}

class ContractReader {
  private readonly loaded = new Set<string>();
  private readonly schemas: SchemaDocument[] = [];
  private readonly simpleTypes = new Map<string, SimpleTypeModel>();
  private readonly complexTypes = new Map<string, ComplexTypeModel>();
  private readonly elements = new Map<string, ElementModel>();
  private namespace = '';

  constructor(private readonly wsdlPath: string) {}

  async read(): Promise<ContractModel> {
    this.loaded.add(this.wsdlPath);
    const definitions = await readXmlFile(this.wsdlPath);
    if (definitions.uri !== WSDL_NS || definitions.local !== 'definitions') {
      throw new ContractError(`${this.wsdlPath}: the root element must be a WSDL 1.1 <definitions>`);
    }
    for (const types of childrenOf(definitions, WSDL_NS, 'types')) {
      for (const schema of childrenOf(types, XSD_NS, 'schema')) await this.collectSchema(schema);
    }
    const withContent = this.schemas.filter((s) => s.node.children.some((c) => c.uri === XSD_NS && c.local !== 'import' && c.local !== 'include' && c.local !== 'annotation'));
    const namespaces = new Set(withContent.map((s) => s.targetNamespace ?? ''));
    if (namespaces.size !== 1) {
      throw new ContractError(`${this.wsdlPath}: the messages must live in exactly one target namespace, found ${[...namespaces].map((n) => `"${n}"`).join(', ') || 'none'}`);
    }
    this.namespace = [...namespaces][0]!;
    const qualified = new Set(withContent.map((s) => s.node.attributes.elementFormDefault === 'qualified'));
    if (qualified.size !== 1) throw new ContractError(`${this.wsdlPath}: every schema must use the same elementFormDefault`);

    // Named types first, so that elements and fields can refer to them in any order.
    for (const { node } of withContent) {
      for (const simple of childrenOf(node, XSD_NS, 'simpleType')) this.addSimpleType(simple);
    }
    for (const { node } of withContent) {
      for (const complex of childrenOf(node, XSD_NS, 'complexType')) this.declareComplexType(complex);
    }
    for (const { node } of withContent) {
      for (const child of node.children) {
        if (child.uri !== XSD_NS) continue;
        if (child.local === 'complexType') this.fillComplexType(child, this.complexTypes.get(child.attributes.name!)!);
        else if (child.local === 'element') this.addElement(child);
        else if (!['simpleType', 'import', 'include', 'annotation'].includes(child.local)) unsupported(child, `<xs:${child.local}>`);
      }
    }
    const operations = this.readOperations(definitions);
    const base = dirname(this.wsdlPath);
    return {
      namespace: this.namespace,
      qualifiedChildren: [...qualified][0]!,
      sources: [...this.loaded].map((path) => relative(base, path)),
      simpleTypes: [...this.simpleTypes.values()],
      complexTypes: [...this.complexTypes.values()],
      elements: [...this.elements.values()],
      operations,
    };
  }

  private async collectSchema(schema: XmlNode): Promise<void> {
    this.schemas.push({ node: schema, targetNamespace: schema.attributes.targetNamespace });
    for (const reference of [...childrenOf(schema, XSD_NS, 'import'), ...childrenOf(schema, XSD_NS, 'include')]) {
      const location = reference.attributes.schemaLocation;
      if (location === undefined) {
        if (reference.local === 'import' && reference.attributes.namespace === XSD_NS) continue;
        throw new ContractError(`${where(reference)}: an import without schemaLocation cannot be resolved offline`);
      }
      if (/^[a-z]+:\/\//i.test(location)) throw new ContractError(`${where(reference)}: remote schemaLocation "${location}": keep the contract local`);
      const path = resolve(dirname(reference.file), location);
      if (this.loaded.has(path)) continue;
      this.loaded.add(path);
      const imported = await readXmlFile(path);
      if (imported.uri !== XSD_NS || imported.local !== 'schema') throw new ContractError(`${path}: the root element must be <xs:schema>`);
      if (reference.local === 'include' && imported.attributes.targetNamespace === undefined) {
        imported.attributes.targetNamespace = schema.attributes.targetNamespace ?? '';
      }
      await this.collectSchema(imported);
    }
  }

  private ownName(node: XmlNode, value: string): string {
    const { uri, local } = resolveQName(node, value);
    if (uri !== this.namespace) throw new ContractError(`${where(node)}: "${value}" is outside the target namespace ${this.namespace}`);
    return local;
  }

  private addSimpleType(node: XmlNode): void {
    const name = node.attributes.name;
    if (!name) unsupported(node, 'an anonymous simple type');
    const restriction = childrenOf(node, XSD_NS, 'restriction')[0];
    if (!restriction || node.children.some((c) => c.uri === XSD_NS && (c.local === 'list' || c.local === 'union'))) {
      unsupported(node, 'a simple type other than a restriction');
    }
    const base = resolveQName(restriction, restriction.attributes.base ?? '');
    const scalar = base.uri === XSD_NS ? builtIns[base.local] : undefined;
    if (!scalar) unsupported(restriction, `the restriction base "${restriction.attributes.base}"`);
    const model: SimpleTypeModel = { name, scalar, xsdType: base.local, patterns: [], enumeration: [] };
    const doc = documentationOf(node);
    if (doc) model.doc = doc;
    for (const facet of restriction.children) {
      if (facet.uri !== XSD_NS || facet.local === 'annotation') continue;
      const value = facet.attributes.value ?? '';
      if (facet.local === 'pattern') model.patterns.push(value);
      else if (facet.local === 'enumeration') model.enumeration.push(value);
      else if (facet.local === 'minLength') model.minLength = Number(value);
      else if (facet.local === 'maxLength') model.maxLength = Number(value);
      else unsupported(facet, `the facet <xs:${facet.local}>`);
    }
    this.simpleTypes.set(name, model);
  }

  private declareComplexType(node: XmlNode): void {
    const name = node.attributes.name;
    if (!name) unsupported(node, 'an anonymous top-level complex type');
    if (this.complexTypes.has(name)) throw new ContractError(`${where(node)}: complex type ${name} is declared twice`);
    const model: ComplexTypeModel = { name, fields: [] };
    const doc = documentationOf(node);
    if (doc) model.doc = doc;
    this.complexTypes.set(name, model);
  }

  private fillComplexType(node: XmlNode, model: ComplexTypeModel): void {
    for (const child of node.children) {
      if (child.uri !== XSD_NS || child.local === 'annotation') continue;
      if (child.local !== 'sequence' && child.local !== 'all') unsupported(child, `<xs:${child.local}> in a complex type`);
      for (const item of child.children) {
        if (item.uri !== XSD_NS || item.local === 'annotation') continue;
        if (item.local !== 'element') unsupported(item, `<xs:${item.local}> in a sequence`);
        model.fields.push(this.readField(item, model.name));
      }
    }
    if (node.attributes.mixed === 'true') unsupported(node, 'mixed content');
  }

  private readField(node: XmlNode, ownerName: string): FieldModel {
    const name = node.attributes.name;
    if (!name) unsupported(node, 'an element reference (ref=)');
    const field: FieldModel = {
      name,
      type: this.fieldType(node, `${ownerName}${pascalCase(name)}`, ownerName),
      minOccurs: occurs(node, 'minOccurs'),
      maxOccurs: occurs(node, 'maxOccurs'),
    };
    const doc = documentationOf(node);
    if (doc) field.doc = doc;
    if (node.attributes.nillable === 'true') unsupported(node, 'nillable="true"');
    return field;
  }

  private fieldType(node: XmlNode, anonymousName: string, ownerName?: string): FieldModel['type'] {
    const inline = childrenOf(node, XSD_NS, 'complexType')[0];
    if (inline) return { kind: 'complex', typeName: this.addAnonymousType(inline, anonymousName, node.attributes.name!, ownerName) };
    if (childrenOf(node, XSD_NS, 'simpleType').length > 0) unsupported(node, 'an inline simple type (name it)');
    const typeAttribute = node.attributes.type;
    if (typeAttribute === undefined) unsupported(node, 'an element without a type');
    const { uri, local } = resolveQName(node, typeAttribute);
    if (uri === XSD_NS) {
      const scalar = builtIns[local];
      if (!scalar) unsupported(node, `the XSD type "${typeAttribute}"`);
      return { kind: 'scalar', scalar, xsdType: local };
    }
    const name = this.ownName(node, typeAttribute);
    const simple = this.simpleTypes.get(name);
    if (simple) return { kind: 'scalar', scalar: simple.scalar, xsdType: simple.xsdType, simpleType: name };
    if (this.complexTypes.has(name)) return { kind: 'complex', typeName: name };
    throw new ContractError(`${where(node)}: type "${typeAttribute}" is not declared`);
  }

  private addAnonymousType(node: XmlNode, name: string, elementName: string, ownerName?: string): string {
    if (this.complexTypes.has(name)) throw new ContractError(`${where(node)}: the inline type of ${elementName} would be named ${name}, which is taken`);
    const model: ComplexTypeModel = { name, fields: [], anonymousIn: elementName };
    if (ownerName) model.anonymousOwner = ownerName;
    this.complexTypes.set(name, model);
    this.fillComplexType(node, model);
    return name;
  }

  private addElement(node: XmlNode): void {
    const name = node.attributes.name;
    if (!name) unsupported(node, 'a top-level element without a name');
    const type = this.fieldType(node, pascalCase(name));
    if (type.kind !== 'complex') unsupported(node, 'a top-level message element of a simple type');
    const model: ElementModel = { name, typeName: type.typeName };
    const doc = documentationOf(node);
    if (doc) model.doc = doc;
    this.elements.set(name, model);
  }

  private readOperations(definitions: XmlNode): OperationModel[] {
    const byName = (local: string) =>
      new Map(childrenOf(definitions, WSDL_NS, local).map((n) => [n.attributes.name ?? '', n] as const));
    const messages = byName('message');
    const portTypes = byName('portType');
    const bindings = byName('binding');
    const messageElement = (operation: XmlNode, direction: 'input' | 'output'): string => {
      const io = childrenOf(operation, WSDL_NS, direction)[0];
      if (!io) unsupported(operation, `an operation without <wsdl:${direction}>`);
      const message = messages.get(this.ownName(io, io.attributes.message ?? ''));
      if (!message) throw new ContractError(`${where(io)}: message ${io.attributes.message} is not declared`);
      const parts = childrenOf(message, WSDL_NS, 'part');
      if (parts.length !== 1 || parts[0]!.attributes.element === undefined) {
        unsupported(message, 'a document/literal message that is not exactly one element part');
      }
      const element = this.ownName(parts[0]!, parts[0]!.attributes.element!);
      if (!this.elements.has(element)) throw new ContractError(`${where(parts[0]!)}: element ${element} is not declared`);
      return element;
    };

    const operations: OperationModel[] = [];
    for (const service of childrenOf(definitions, WSDL_NS, 'service')) {
      for (const port of childrenOf(service, WSDL_NS, 'port')) {
        if (childrenOf(port, WSDL_SOAP12_NS, 'address').length > 0) unsupported(port, 'a SOAP 1.2 port');
        const address = childrenOf(port, WSDL_SOAP11_NS, 'address')[0]?.attributes.location;
        if (address === undefined) unsupported(port, 'a port without <soap:address>');
        const binding = bindings.get(this.ownName(port, port.attributes.binding ?? ''));
        if (!binding) throw new ContractError(`${where(port)}: binding ${port.attributes.binding} is not declared`);
        const soapBinding = childrenOf(binding, WSDL_SOAP11_NS, 'binding')[0];
        if (!soapBinding) unsupported(binding, 'a binding that is not SOAP 1.1');
        const portType = portTypes.get(this.ownName(binding, binding.attributes.type ?? ''));
        if (!portType) throw new ContractError(`${where(binding)}: port type ${binding.attributes.type} is not declared`);
        for (const bound of childrenOf(binding, WSDL_NS, 'operation')) {
          const soapOperation = childrenOf(bound, WSDL_SOAP11_NS, 'operation')[0];
          const style = soapOperation?.attributes.style ?? soapBinding.attributes.style ?? 'document';
          if (style !== 'document') unsupported(bound, `style="${style}"`);
          for (const direction of ['input', 'output'] as const) {
            for (const body of childrenOf(childrenOf(bound, WSDL_NS, direction)[0] ?? bound, WSDL_SOAP11_NS, 'body')) {
              if (body.attributes.use !== 'literal') unsupported(body, `use="${body.attributes.use}"`);
            }
          }
          const name = bound.attributes.name ?? '';
          const abstract = childrenOf(portType, WSDL_NS, 'operation').find((o) => o.attributes.name === name);
          if (!abstract) throw new ContractError(`${where(bound)}: operation ${name} is not in port type ${portType.attributes.name}`);
          if (operations.some((o) => o.name === name)) throw new ContractError(`${where(bound)}: operation ${name} is bound twice`);
          const operation: OperationModel = {
            name,
            service: service.attributes.name ?? '',
            port: port.attributes.name ?? '',
            address,
            soapAction: soapOperation?.attributes.soapAction ?? '',
            inputElement: messageElement(abstract, 'input'),
            outputElement: messageElement(abstract, 'output'),
          };
          const doc = documentationOf(abstract);
          if (doc) operation.doc = doc;
          operations.push(operation);
        }
      }
    }
    if (operations.length === 0) throw new ContractError(`${this.wsdlPath}: no SOAP 1.1 operation is bound to a service port`);
    return operations;
  }
}

/** Reads a WSDL 1.1 file and the XSD files it imports (paths resolved from the WSDL's folder). */
export function readContract(wsdlPath: string): Promise<ContractModel> {
  return new ContractReader(resolve(wsdlPath)).read();
}
