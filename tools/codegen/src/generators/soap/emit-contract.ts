import { addressPath, ContractError, declarationsOf } from '@paykit/contracts';
import type { FieldDescriptor, OperationDescriptor } from './descriptors.js';
import { jsDoc, pascalCase, quote } from './emit-code.js';
import type { CodegenView, FieldView } from './view.js';
import { xsdPatternToRegExpSource } from './xsd-pattern.js';

/** A value of a descriptor as a TypeScript literal: strings quoted, `Infinity` by name, patterns as regex literals. */
function literal(value: unknown): string {
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'string') return quote(value);
  return String(value);
}

/** An XSD pattern as the anchored `u` regular expression the codec tests values with; refused here when invalid. */
function patternOf(pattern: string, owner: string): RegExp {
  const source = xsdPatternToRegExpSource(pattern, owner);
  try {
    return new RegExp(source, 'u');
  } catch (error) {
    throw new ContractError(`${owner}: the pattern ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`);
  }
}

function fieldDescriptor(field: FieldView, model: CodegenView): FieldDescriptor {
  const occurs = { minOccurs: field.minOccurs, maxOccurs: field.maxOccurs };
  if (field.type.kind === 'complex') return { name: field.name, kind: 'complex', typeName: field.type.typeName, ...occurs };
  const { simpleType } = field.type;
  const simple = simpleType === undefined ? undefined : model.simpleTypes.find((s) => s.name === simpleType)!;
  if (!simple) return { name: field.name, kind: field.type.scalar, ...occurs };
  const owner = `simple type ${simple.name}`;
  return {
    name: field.name,
    kind: field.type.scalar,
    ...occurs,
    simpleType: simple.name,
    ...(simple.patterns.length > 0 ? { patterns: simple.patterns.map((pattern) => patternOf(pattern, owner)) } : {}),
    ...(simple.enumeration.length > 0 ? { enumeration: simple.enumeration } : {}),
    ...(simple.minLength !== undefined ? { minLength: simple.minLength } : {}),
    ...(simple.maxLength !== undefined ? { maxLength: simple.maxLength } : {}),
  };
}

/** A field's descriptor on one line: `{ name: 'fileId', kind: 'string', minOccurs: 1, ... }`. */
const fieldLiteral = (descriptor: FieldDescriptor): string =>
  `{ ${Object.entries(descriptor)
    .map(([key, value]) => `${key}: ${literal(value)}`)
    .join(', ')} }`;

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
  // The descriptors' types, written once, in descriptors.ts.
  out.push(declarationsOf(new URL('./descriptors.ts', import.meta.url)));
  out.push(`/** Target namespace of every message element. */\nexport const namespace = ${quote(model.namespace)};\n`);
  out.push(`/** Whether child elements carry the namespace too (elementFormDefault="qualified"). */\nexport const qualifiedChildren = ${model.qualifiedChildren};\n`);
  const types = model.complexTypes.map((complex) => {
    const fields = complex.fields.map((f) => `    ${fieldLiteral(fieldDescriptor(f, model))},`);
    return fields.length === 0 ? `  ${complex.name}: [],` : `  ${complex.name}: [\n${fields.join('\n')}\n  ],`;
  });
  out.push(`/** Child elements of every complex type, in schema order (the order they must be written in). */\nexport const complexTypes: Readonly<Record<string, readonly FieldDescriptor[]>> = {\n${types.join('\n')}\n};\n`);
  const elements = model.elements.map((e) => `  ${e.name}: ${quote(e.typeName)},`);
  out.push(`/** Message elements and their complex type (key of \`complexTypes\`). */\nexport const elements: Readonly<Record<string, string>> = {\n${elements.join('\n')}\n};\n`);
  const operations = model.operations.map((o) => {
    const descriptor: OperationDescriptor = {
      service: o.service,
      port: o.port,
      address: o.address,
      path: lastPathSegment(o.address),
      soapAction: o.soapAction,
      input: o.inputElement,
      output: o.outputElement,
    };
    const fields = Object.entries(descriptor).map(([key, value]) => `    ${key}: ${literal(value)},`);
    return `  ${o.name}: {\n${fields.join('\n')}\n  },`;
  });
  out.push(`/** The bound operations: one SOAP 1.1 document/literal exchange each. */\nexport const operations = {\n${operations.join('\n')}\n} as const satisfies Record<string, OperationDescriptor>;\n`);
  out.push(`/** Request and response body types of each operation. */\nexport interface OperationMessages {\n${messages.join('\n')}\n}\n`);
  out.push(`export type OperationName = keyof OperationMessages;\n`);
  return out.join('\n');
}
