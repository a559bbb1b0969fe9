import { ContractError } from '@paykit/contracts';
import { jsDoc, pascalCase, propertyKey } from './emit-code.js';
import type { CodegenView, FieldView, ScalarKind } from './view.js';

const tsScalar: Record<ScalarKind, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  // The codec does the base64: callers give and receive bytes.
  base64Binary: 'Uint8Array',
};

function fieldType(field: FieldView): string {
  const single =
    field.type.kind === 'complex'
      ? field.type.typeName
      : (field.type.simpleType ?? tsScalar[field.type.scalar]);
  return field.maxOccurs > 1 ? `${single}[]` : single;
}

function occurrence(field: FieldView): string | undefined {
  if (field.maxOccurs > 1) {
    const max = field.maxOccurs === Infinity ? 'unbounded' : String(field.maxOccurs);
    return `XSD: ${field.minOccurs} to ${max} elements.`;
  }
  return undefined;
}

/** TypeScript declarations of the contract's simple types, complex types and message elements. */
export function emitTypes(model: CodegenView): string {
  const out: string[] = [];
  for (const simple of model.simpleTypes) {
    const rules = [
      ...simple.patterns.map((p) => `Pattern (XSD, anchored): \`${p}\`.`),
      simple.minLength === undefined ? undefined : `At least ${simple.minLength} characters.`,
      simple.maxLength === undefined ? undefined : `At most ${simple.maxLength} characters.`,
    ];
    const type = simple.enumeration.length > 0 ? simple.enumeration.map((v) => JSON.stringify(v)).join(' | ') : tsScalar[simple.scalar];
    out.push(`${jsDoc([simple.doc, ...rules])}export type ${simple.name} = ${type};\n`);
  }
  for (const complex of model.complexTypes) {
    const owner = complex.anonymousOwner ? ` in \`${complex.anonymousOwner}\`` : '';
    const origin = complex.anonymousIn ? `Inline type of the \`${complex.anonymousIn}\` element${owner}.` : `XSD complex type \`${complex.name}\`.`;
    const doc = jsDoc([complex.doc, origin]);
    if (complex.fields.length === 0) {
      out.push(`${doc}export type ${complex.name} = Record<string, never>;\n`);
      continue;
    }
    const fields = complex.fields.map((field) => {
      const optional = field.minOccurs === 0 ? '?' : '';
      return `${jsDoc([field.doc, occurrence(field)], '  ')}  ${propertyKey(field.name)}${optional}: ${fieldType(field)};`;
    });
    out.push(`${doc}export interface ${complex.name} {\n${fields.join('\n')}\n}\n`);
  }
  const declared = new Set([...model.simpleTypes.map((s) => s.name), ...model.complexTypes.map((c) => c.name)]);
  for (const element of model.elements) {
    const alias = pascalCase(element.name);
    if (alias === element.typeName) continue;
    if (declared.has(alias)) {
      throw new ContractError(`element ${element.name} would be exported as ${alias}, which is already a type name`);
    }
    declared.add(alias);
    out.push(`${jsDoc([element.doc, `Message element \`${element.name}\` (type \`${element.typeName}\`).`])}export type ${alias} = ${element.typeName};\n`);
  }
  return out.join('\n');
}
