// The descriptors of the SOAP contract, written once: emit-contract.ts builds them with these types, and copies every
// declaration below this comment, as it is written here, into the client's generated contract.ts, where the
// hand-written codec of @paykit/file-exchange-soap reads them (the generated file depends on nothing hand-written).

/** How the codec writes and reads one child element. */
export interface ScalarFieldDescriptor {
  readonly name: string;
  readonly kind: 'string' | 'number' | 'boolean' | 'base64Binary';
  readonly minOccurs: number;
  readonly maxOccurs: number;
  /** Named simple type of the contract, when the field has one. */
  readonly simpleType?: string;
  /** Every pattern must match (XSD patterns, anchored). */
  readonly patterns?: readonly RegExp[];
  readonly enumeration?: readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
}

export interface ComplexFieldDescriptor {
  readonly name: string;
  readonly kind: 'complex';
  /** Key of `complexTypes`. */
  readonly typeName: string;
  readonly minOccurs: number;
  readonly maxOccurs: number;
}

export type FieldDescriptor = ScalarFieldDescriptor | ComplexFieldDescriptor;

export interface OperationDescriptor {
  readonly service: string;
  readonly port: string;
  /** The port's soap:address as written in the WSDL; clients replace everything before its last path segment. */
  readonly address: string;
  /** Last path segment of the address: the operation's path under the SOAP base address. */
  readonly path: string;
  readonly soapAction: string;
  /** Key of `elements`: the request's body element. */
  readonly input: string;
  /** Key of `elements`: the response's body element. */
  readonly output: string;
}
