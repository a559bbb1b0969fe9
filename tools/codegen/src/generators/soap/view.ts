/**
 * What the generator prints, taken from the contract model of @paykit/contracts: document/literal SOAP 1.1,
 * sequences of elements, named simple types restricting a built-in. Everything else is refused with the place it is
 * written, instead of being printed wrong. Inline complex types get TypeScript names here (`PingNested`).
 */
import {
  ContractError,
  isBuiltIn,
  readSoapContract,
  type ComplexType,
  type ElementDeclaration,
  type QName,
  type SimpleType,
  type SoapContractModel,
  type Source,
} from '@paykit/contracts';
import { pascalCase } from './emit-code.js';

export type ScalarKind = 'string' | 'number' | 'boolean' | 'base64Binary';

export interface ScalarFieldType {
  kind: 'scalar';
  scalar: ScalarKind;
  /** The XSD built-in type behind it, e.g. `int` or `base64Binary`. */
  xsdType: string;
  /** Named simple type of the contract this field uses, when any. */
  simpleType?: string;
}

export interface ComplexFieldType {
  kind: 'complex';
  typeName: string;
}

export interface FieldView {
  name: string;
  doc?: string;
  type: ScalarFieldType | ComplexFieldType;
  minOccurs: number;
  /** `Infinity` for `unbounded`. */
  maxOccurs: number;
}

export interface ComplexTypeView {
  name: string;
  doc?: string;
  fields: FieldView[];
  /** Set for a type declared inline in an element: the element's name. */
  anonymousIn?: string;
  /** For an inline type of a child element: the complex type that holds that element. */
  anonymousOwner?: string;
}

export interface SimpleTypeView {
  name: string;
  doc?: string;
  scalar: ScalarKind;
  xsdType: string;
  /** XSD patterns (implicitly anchored); a value must match every one. */
  patterns: string[];
  enumeration: string[];
  minLength?: number;
  maxLength?: number;
}

export interface ElementView {
  name: string;
  doc?: string;
  typeName: string;
}

export interface OperationView {
  name: string;
  doc?: string;
  service: string;
  port: string;
  /** `soap:address` of the port, as written in the WSDL. */
  address: string;
  soapAction: string;
  inputElement: string;
  outputElement: string;
}

export interface CodegenView {
  /** The one target namespace of the messages. */
  namespace: string;
  /** Whether child elements are namespace-qualified (`elementFormDefault="qualified"`). */
  qualifiedChildren: boolean;
  /** Every file read, relative to the folder of the WSDL, in the order read. */
  sources: string[];
  simpleTypes: SimpleTypeView[];
  complexTypes: ComplexTypeView[];
  elements: ElementView[];
  operations: OperationView[];
}

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

function unsupported(source: Source, what: string): never {
  throw new ContractError(`${source}: ${what} is not supported by paykit-codegen`);
}

const withDoc = <T extends object>(view: T, doc: string): T & { doc?: string } => (doc ? { ...view, doc } : view);

/** Builds the view of one contract; named types first, so that fields can refer to them in any order. */
class ViewBuilder {
  readonly complexTypes = new Map<string, ComplexTypeView>();
  readonly simpleTypes = new Map<string, SimpleTypeView>();

  constructor(readonly namespace: string) {}

  /** The local name of a QName of the messages' namespace. */
  ownName(name: QName, source: Source): string {
    if (name.namespace !== this.namespace) throw new ContractError(`${source}: {${name.namespace}}${name.name} is outside the target namespace ${this.namespace}`);
    return name.name;
  }

  simpleType(type: SimpleType & { name: string }): void {
    if (type.variety !== 'restriction') unsupported(type.source, 'a simple type other than a restriction');
    const scalar = type.base && isBuiltIn(type.base) ? builtIns[type.base.name] : undefined;
    if (!type.base || !scalar) unsupported(type.source, `the restriction base "${type.base ? `{${type.base.namespace}}${type.base.name}` : 'inline'}"`);
    const view: SimpleTypeView = withDoc({ name: type.name, scalar, xsdType: type.base.name, patterns: [], enumeration: [] }, type.documentation);
    for (const facet of type.facets) {
      if (facet.name === 'pattern') view.patterns.push(facet.value);
      else if (facet.name === 'enumeration') view.enumeration.push(facet.value);
      else if (facet.name === 'minLength') view.minLength = Number(facet.value);
      else if (facet.name === 'maxLength') view.maxLength = Number(facet.value);
      else unsupported(facet.source, `the facet <xs:${facet.name}>`);
    }
    this.simpleTypes.set(type.name, view);
  }

  declareComplexType(type: ComplexType & { name: string }): void {
    this.complexTypes.set(type.name, withDoc({ name: type.name, fields: [] }, type.documentation));
  }

  fillComplexType(type: ComplexType, view: ComplexTypeView): void {
    if (type.derivation) unsupported(type.source, `<xs:${type.derivation.content}Content> in a complex type`);
    if (type.attributes[0]) unsupported(type.attributes[0].source, '<xs:attribute> in a complex type');
    if (type.mixed) unsupported(type.source, 'mixed content');
    if (!type.group) return;
    if (type.group.compositor === 'choice') unsupported(type.group.source, '<xs:choice> in a complex type');
    for (const particle of type.group.particles) {
      if (particle.kind !== 'element') unsupported(particle.source, `<xs:${particle.compositor}> in a sequence`);
      view.fields.push(this.field(particle, view.name));
    }
  }

  private field(element: ElementDeclaration, ownerName: string): FieldView {
    if (element.ref) unsupported(element.source, 'an element reference (ref=)');
    const field: FieldView = withDoc(
      { name: element.name, type: this.fieldType(element, `${ownerName}${pascalCase(element.name)}`, ownerName), minOccurs: element.minOccurs, maxOccurs: element.maxOccurs },
      element.documentation,
    );
    if (element.nillable) unsupported(element.source, 'nillable="true"');
    return field;
  }

  fieldType(element: ElementDeclaration, anonymousName: string, ownerName?: string): FieldView['type'] {
    if (element.inlineType?.kind === 'complex') return { kind: 'complex', typeName: this.anonymousType(element, element.inlineType, anonymousName, ownerName) };
    if (element.inlineType) unsupported(element.source, 'an inline simple type (name it)');
    if (!element.type) unsupported(element.source, 'an element without a type');
    if (isBuiltIn(element.type)) {
      const scalar = builtIns[element.type.name];
      if (!scalar) unsupported(element.source, `the XSD type "xs:${element.type.name}"`);
      return { kind: 'scalar', scalar, xsdType: element.type.name };
    }
    const name = this.ownName(element.type, element.source);
    const simple = this.simpleTypes.get(name);
    if (simple) return { kind: 'scalar', scalar: simple.scalar, xsdType: simple.xsdType, simpleType: name };
    if (this.complexTypes.has(name)) return { kind: 'complex', typeName: name };
    throw new ContractError(`${element.source}: type ${name} is not declared`);
  }

  private anonymousType(element: ElementDeclaration, type: ComplexType, name: string, ownerName?: string): string {
    if (this.complexTypes.has(name)) throw new ContractError(`${element.source}: the inline type of ${element.name} would be named ${name}, which is taken`);
    const view: ComplexTypeView = { name, fields: [], anonymousIn: element.name, ...(ownerName ? { anonymousOwner: ownerName } : {}) };
    this.complexTypes.set(name, view);
    this.fillComplexType(type, view);
    return name;
  }
}

/** The one namespace of the messages and whether their children are qualified; several of either are refused. */
function messagesNamespace(model: SoapContractModel): { namespace: string; qualifiedChildren: boolean } {
  const declaring = model.schemas.filter((s) => s.declares);
  const namespaces = new Set(declaring.map((s) => s.targetNamespace));
  if (namespaces.size !== 1) {
    throw new ContractError(`${model.wsdlFile}: the messages must live in exactly one target namespace, found ${[...namespaces].map((n) => `"${n}"`).join(', ') || 'none'}`);
  }
  const qualified = new Set(declaring.map((s) => s.elementFormDefault === 'qualified'));
  if (qualified.size !== 1) throw new ContractError(`${model.wsdlFile}: every schema must use the same elementFormDefault`);
  return { namespace: [...namespaces][0]!, qualifiedChildren: [...qualified][0]! };
}

/** The element of a port type operation's message: document/literal wants exactly one part, an element. */
function messageElement(model: SoapContractModel, builder: ViewBuilder, portType: string, operationName: string, direction: 'input' | 'output'): string {
  const operation = model.portTypes.find((p) => p.name === portType)!.operations.find((o) => o.name === operationName)!;
  const reference = operation[direction];
  if (!reference) unsupported(operation.source, `an operation without <wsdl:${direction}>`);
  const message = model.messages.find((m) => m.name === reference.name)!;
  const element = message.parts.length === 1 ? message.parts[0]!.element : undefined;
  if (!element) unsupported(message.source, 'a document/literal message that is not exactly one element part');
  return builder.ownName(element, message.parts[0]!.source);
}

/** Every operation bound to a service port, which must be SOAP 1.1 document/literal, each operation bound once. */
function operationViews(model: SoapContractModel, builder: ViewBuilder): OperationView[] {
  const operations: OperationView[] = [];
  for (const service of model.services) {
    for (const port of service.ports) {
      if (port.address?.soapVersion === '1.2') unsupported(port.source, 'a SOAP 1.2 port');
      if (!port.address) unsupported(port.source, 'a port without <soap:address>');
      const binding = model.bindings.find((b) => b.name === port.binding.name)!;
      if (binding.soapVersion !== '1.1') unsupported(binding.source, 'a binding that is not SOAP 1.1');
      for (const bound of binding.operations) {
        const style = bound.style ?? 'document';
        if (style !== 'document') unsupported(bound.source, `style="${style}"`);
        for (const use of [bound.inputUse, bound.outputUse]) if (use !== undefined && use !== 'literal') unsupported(bound.source, `use="${use}"`);
        if (operations.some((o) => o.name === bound.name)) throw new ContractError(`${bound.source}: operation ${bound.name} is bound twice`);
        const abstract = model.portTypes.find((p) => p.name === binding.portType.name)!.operations.find((o) => o.name === bound.name)!;
        operations.push(
          withDoc(
            {
              name: bound.name,
              service: service.name,
              port: port.name,
              address: port.address.location,
              soapAction: bound.soapAction ?? '',
              inputElement: messageElement(model, builder, binding.portType.name, bound.name, 'input'),
              outputElement: messageElement(model, builder, binding.portType.name, bound.name, 'output'),
            },
            abstract.documentation,
          ),
        );
      }
    }
  }
  if (operations.length === 0) throw new ContractError(`${model.wsdlFile}: no SOAP 1.1 operation is bound to a service port`);
  return operations;
}

/** The generator's view of a contract model; throws a ContractError on anything it cannot print. */
export function codegenView(model: SoapContractModel): CodegenView {
  const { namespace, qualifiedChildren } = messagesNamespace(model);
  const builder = new ViewBuilder(namespace);
  for (const simple of model.simpleTypes) builder.simpleType(simple);
  for (const complex of model.complexTypes) builder.declareComplexType(complex);
  for (const complex of model.complexTypes) builder.fillComplexType(complex, builder.complexTypes.get(complex.name)!);
  const elements = model.elements.map((element): ElementView => {
    const type = builder.fieldType(element, pascalCase(element.name));
    if (type.kind !== 'complex') unsupported(element.source, 'a top-level message element of a simple type');
    return withDoc({ name: element.name, typeName: type.typeName }, element.documentation);
  });
  return {
    namespace,
    qualifiedChildren,
    sources: model.sources,
    simpleTypes: [...builder.simpleTypes.values()],
    complexTypes: [...builder.complexTypes.values()],
    elements,
    operations: operationViews(model, builder),
  };
}

/** Reads the WSDL at `wsdlPath` (and the XSD it imports) and returns what the generator prints of it. */
export async function readCodegenView(wsdlPath: string): Promise<CodegenView> {
  return codegenView(await readSoapContract(wsdlPath));
}
