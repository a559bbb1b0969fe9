/**
 * What a WSDL 1.1 contract and the XML schemas it imports say, as plain data: the one model the SOAP code generator,
 * the compatibility gate and the docs read. It records what is written (occurrences as declared, inline types where
 * they are declared, documentation, where each declaration is); consumers decide what they support and how they name
 * things. `readSoapContract` builds it and refuses what it cannot represent.
 */

import type { SensitiveKind } from '../sensitive/kinds.js';

/** A qualified name: `{namespace}name`. Names in the XSD namespace are the built-in types. */
export interface QName {
  namespace: string;
  name: string;
}

/** Where a declaration is written, for messages: `file:line <local name="...">`. */
export type Source = string;

export interface ElementDeclaration {
  kind: 'element';
  /** For `ref=`, the name of the global element it stands for. */
  name: string;
  /** `ref=`: the global element this particle stands for (it then has no type of its own). */
  ref?: QName;
  /** A named type (a built-in when in the XSD namespace); absent with an inline type, a reference or no type at all. */
  type?: QName;
  inlineType?: ComplexType | SimpleType;
  minOccurs: number;
  /** `Infinity` for `unbounded`. */
  maxOccurs: number;
  nillable: boolean;
  documentation: string;
  /**
   * Our mark in `xs:annotation/xs:appinfo` (`<paykit:sensitive>secret</paykit:sensitive>`, namespace
   * `urn:paykit:contract-extensions:v1`): a kind, or `false` for a name that looks secret and is not; absent when
   * unmarked.
   */
  sensitive?: SensitiveKind | false;
  source: Source;
}

export interface AttributeDeclaration {
  /** For `ref=`, the name of the global attribute it stands for. */
  name: string;
  ref?: QName;
  type?: QName;
  inlineType?: SimpleType;
  /** `use="required"`. */
  required: boolean;
  documentation: string;
  source: Source;
}

/** `xs:sequence`, `xs:choice` or `xs:all`, with its particles in document order. */
export interface ModelGroup {
  kind: 'group';
  compositor: 'sequence' | 'choice' | 'all';
  minOccurs: number;
  maxOccurs: number;
  particles: Particle[];
  source: Source;
}

export type Particle = ElementDeclaration | ModelGroup;

export interface ComplexType {
  kind: 'complex';
  /** Absent for a type declared inline in an element. */
  name?: string;
  documentation: string;
  /** `xs:complexContent` or `xs:simpleContent` with an `xs:extension` or `xs:restriction` of `base`. */
  derivation?: { content: 'complex' | 'simple'; method: 'extension' | 'restriction'; base: QName; source: Source };
  /** The content model (of the derivation when there is one); absent for an empty type. */
  group?: ModelGroup;
  attributes: AttributeDeclaration[];
  mixed: boolean;
  source: Source;
}

export interface Facet {
  /** The facet's element name: `pattern`, `maxLength`, `enumeration`... */
  name: string;
  value: string;
  source: Source;
}

export interface SimpleType {
  kind: 'simple';
  /** Absent for a type declared inline. */
  name?: string;
  documentation: string;
  variety: 'restriction' | 'list' | 'union';
  /** The restriction's base; absent when it is an inline type. */
  base?: QName;
  /** A list's item type; absent when it is an inline type. */
  itemType?: QName;
  /** A union's member types named in `memberTypes`. */
  memberTypes: QName[];
  /** The restriction's facets in document order. */
  facets: Facet[];
  source: Source;
}

/** A global declaration carries the target namespace of its schema. */
export type Global<T> = T & { name: string; namespace: string };

/** One `xs:schema`: inline in the WSDL or in an imported or included file. */
export interface Schema {
  file: string;
  /** '' when the schema has none. */
  targetNamespace: string;
  elementFormDefault: 'qualified' | 'unqualified';
  /** Whether it declares anything: a WSDL's inline schema often only imports the real one. */
  declares: boolean;
}

export interface MessagePart {
  name: string;
  element?: QName;
  type?: QName;
  source: Source;
}

export interface Message {
  name: string;
  parts: MessagePart[];
  source: Source;
}

export interface PortTypeOperation {
  name: string;
  documentation: string;
  input?: QName;
  output?: QName;
  faults: { name: string; message: QName }[];
  source: Source;
}

export interface PortType {
  name: string;
  operations: PortTypeOperation[];
  source: Source;
}

/** The SOAP binding extensions are read for SOAP 1.1 (`soap:`) and SOAP 1.2 (`soap12:`). */
export type SoapVersion = '1.1' | '1.2';

export interface BindingOperation {
  name: string;
  /** `soapAction` of `soap:operation`; absent when not declared. */
  soapAction?: string;
  /** The operation's `style`, else the binding's; absent when neither says. */
  style?: string;
  /** `use` of the `soap:body` of the input and the output. */
  inputUse?: string;
  outputUse?: string;
  source: Source;
}

export interface Binding {
  name: string;
  /** The port type it binds. */
  portType: QName;
  /** Absent for a binding without a SOAP binding element (HTTP, MIME...). */
  soapVersion?: SoapVersion;
  operations: BindingOperation[];
  source: Source;
}

export interface Port {
  name: string;
  binding: QName;
  /** The `soap:address` (or `soap12:address`), when the port has one. */
  address?: { soapVersion: SoapVersion; location: string };
  source: Source;
}

export interface Service {
  name: string;
  documentation: string;
  ports: Port[];
  source: Source;
}

/** Where an operation is served: one port of a service and the binding that port uses. */
export interface Endpoint {
  service: string;
  port: string;
  binding: string;
  /** The port's address as written in the WSDL; absent when it has none. */
  address?: string;
}

/** A port type's operation with its messages' elements, how each binding binds it and the ports that serve it. */
export interface Operation {
  name: string;
  documentation: string;
  portType: string;
  /** The element of each message's part (document/literal); absent when the message has no element part. */
  input?: QName;
  output?: QName;
  faults: QName[];
  bindings: (BindingOperation & { binding: string; soapVersion?: SoapVersion })[];
  endpoints: Endpoint[];
  source: Source;
}

export interface SoapContractModel {
  /** The WSDL, as given to the reader. */
  wsdlFile: string;
  /** Every file read, relative to the WSDL's folder, in the order read (the WSDL first). */
  sources: string[];
  /** `name` of `wsdl:definitions` ('' when none). */
  name: string;
  targetNamespace: string;
  documentation: string;
  schemas: Schema[];
  /** Global declarations, in the order read. */
  elements: Global<ElementDeclaration>[];
  complexTypes: Global<ComplexType>[];
  simpleTypes: Global<SimpleType>[];
  messages: Message[];
  portTypes: PortType[];
  bindings: Binding[];
  services: Service[];
  operations: Operation[];
}
