import { addressPath } from '@paykit/contracts';
import { jsDoc, pascalCase, quote } from './emit-code.js';
import type { CodegenView, FieldView } from './view.js';
import { xsdPatternToRegExpSource } from './xsd-pattern.js';

/** The descriptor types, printed into the generated file so that it depends on nothing hand-written. */
const descriptorTypes = `/** How the codec writes and reads one child element. */
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
  /** Key of \`complexTypes\`. */
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
  /** Key of \`elements\`: the request's body element. */
  readonly input: string;
  /** Key of \`elements\`: the response's body element. */
  readonly output: string;
}
`;

function fieldDescriptor(field: FieldView, model: CodegenView): string {
  const parts = [`name: ${quote(field.name)}`];
  if (field.type.kind === 'complex') {
    parts.push(`kind: 'complex'`, `typeName: ${quote(field.type.typeName)}`);
  } else {
    parts.push(`kind: ${quote(field.type.scalar)}`);
  }
  parts.push(`minOccurs: ${field.minOccurs}`, `maxOccurs: ${field.maxOccurs === Infinity ? 'Infinity' : field.maxOccurs}`);
  if (field.type.kind === 'scalar' && field.type.simpleType) {
    const simple = model.simpleTypes.find((s) => s.name === (field.type as { simpleType: string }).simpleType)!;
    parts.push(`simpleType: ${quote(simple.name)}`);
    if (simple.patterns.length > 0) {
      const patterns = simple.patterns.map((p) => `/${xsdPatternToRegExpSource(p, `simple type ${simple.name}`)}/u`);
      parts.push(`patterns: [${patterns.join(', ')}]`);
    }
    if (simple.enumeration.length > 0) parts.push(`enumeration: [${simple.enumeration.map(quote).join(', ')}]`);
    if (simple.minLength !== undefined) parts.push(`minLength: ${simple.minLength}`);
    if (simple.maxLength !== undefined) parts.push(`maxLength: ${simple.maxLength}`);
  }
  return `{ ${parts.join(', ')} }`;
}

const lastPathSegment = (address: string): string => addressPath(address).split('/').filter(Boolean).at(-1) ?? '';

/** Runtime descriptors of the contract: what the hand-written codec needs to write requests and read responses. */
export function emitContract(model: CodegenView, typesModule: string): string {
  const typeNames = new Set<string>();
  const messages = model.operations.map((operation) => {
    const input = pascalCase(operation.inputElement);
    const output = pascalCase(operation.outputElement);
    typeNames.add(input).add(output);
    return `${jsDoc([operation.doc], '  ')}  ${operation.name}: { input: ${input}; output: ${output} };`;
  });
  const out: string[] = [];
  out.push(`import type { ${[...typeNames].sort().join(', ')} } from '${typesModule}';\n`);
  out.push(descriptorTypes);
  out.push(`/** Target namespace of every message element. */\nexport const namespace = ${quote(model.namespace)};\n`);
  out.push(`/** Whether child elements carry the namespace too (elementFormDefault="qualified"). */\nexport const qualifiedChildren = ${model.qualifiedChildren};\n`);
  const types = model.complexTypes.map((complex) => {
    const fields = complex.fields.map((f) => `    ${fieldDescriptor(f, model)},`);
    return fields.length === 0 ? `  ${complex.name}: [],` : `  ${complex.name}: [\n${fields.join('\n')}\n  ],`;
  });
  out.push(`/** Child elements of every complex type, in schema order (the order they must be written in). */\nexport const complexTypes: Readonly<Record<string, readonly FieldDescriptor[]>> = {\n${types.join('\n')}\n};\n`);
  const elements = model.elements.map((e) => `  ${e.name}: ${quote(e.typeName)},`);
  out.push(`/** Message elements and their complex type (key of \`complexTypes\`). */\nexport const elements: Readonly<Record<string, string>> = {\n${elements.join('\n')}\n};\n`);
  const operations = model.operations.map((o) => {
    const fields = [
      `service: ${quote(o.service)}`,
      `port: ${quote(o.port)}`,
      `address: ${quote(o.address)}`,
      `path: ${quote(lastPathSegment(o.address))}`,
      `soapAction: ${quote(o.soapAction)}`,
      `input: ${quote(o.inputElement)}`,
      `output: ${quote(o.outputElement)}`,
    ];
    return `  ${o.name}: {\n${fields.map((f) => `    ${f},`).join('\n')}\n  },`;
  });
  out.push(`/** The bound operations: one SOAP 1.1 document/literal exchange each. */\nexport const operations = {\n${operations.join('\n')}\n} as const satisfies Record<string, OperationDescriptor>;\n`);
  out.push(`/** Request and response body types of each operation. */\nexport interface OperationMessages {\n${messages.join('\n')}\n}\n`);
  out.push(`export type OperationName = keyof OperationMessages;\n`);
  return out.join('\n');
}
