/** What the generator understands of a WSDL 1.1 + XSD contract: document/literal SOAP 1.1, sequences of elements. */

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

export interface FieldModel {
  name: string;
  doc?: string;
  type: ScalarFieldType | ComplexFieldType;
  minOccurs: number;
  /** `Infinity` for `unbounded`. */
  maxOccurs: number;
}

export interface ComplexTypeModel {
  name: string;
  doc?: string;
  fields: FieldModel[];
  /** Set for a type declared inline in an element: the element's name. */
  anonymousIn?: string;
  /** For an inline type of a child element: the complex type that holds that element. */
  anonymousOwner?: string;
}

export interface SimpleTypeModel {
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

export interface ElementModel {
  name: string;
  doc?: string;
  typeName: string;
}

export interface OperationModel {
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

export interface ContractModel {
  /** The one target namespace of the messages. */
  namespace: string;
  /** Whether child elements are namespace-qualified (`elementFormDefault="qualified"`). */
  qualifiedChildren: boolean;
  /** Every file read, relative to the folder of the WSDL, in the order read. */
  sources: string[];
  simpleTypes: SimpleTypeModel[];
  complexTypes: ComplexTypeModel[];
  elements: ElementModel[];
  operations: OperationModel[];
}
