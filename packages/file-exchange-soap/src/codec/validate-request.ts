import type { RequestProblem } from '../errors.js';
import { complexTypes, elements, type FieldDescriptor, type ScalarFieldDescriptor } from '../generated/contract.js';
import { findNonXmlCharacter } from './xml-text.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value;
}

function checkScalar(field: ScalarFieldDescriptor, value: unknown, path: string, problems: RequestProblem[]): void {
  switch (field.kind) {
    case 'base64Binary':
      if (!(value instanceof Uint8Array)) problems.push({ path, message: `must be bytes (Uint8Array or Buffer), got ${describe(value)}` });
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) problems.push({ path, message: `must be a finite number, got ${describe(value)}` });
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push({ path, message: `must be a boolean, got ${describe(value)}` });
      return;
    case 'string': {
      if (typeof value !== 'string') {
        problems.push({ path, message: `must be a string, got ${describe(value)}` });
        return;
      }
      const bad = findNonXmlCharacter(value);
      if (bad !== -1) problems.push({ path, message: `character U+${value.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')} at ${bad} cannot be sent in XML` });
      const rule = field.simpleType ? ` (${field.simpleType})` : '';
      if (field.patterns?.some((pattern) => !pattern.test(value))) {
        problems.push({ path, message: `"${value}" does not match the pattern${rule} ${field.patterns.map((p) => p.source).join(' and ')}` });
      }
      if (field.enumeration && !field.enumeration.includes(value)) {
        problems.push({ path, message: `must be one of ${field.enumeration.join(', ')}${rule}` });
      }
      if (field.minLength !== undefined && value.length < field.minLength) problems.push({ path, message: `is shorter than ${field.minLength} characters${rule}` });
      if (field.maxLength !== undefined && value.length > field.maxLength) problems.push({ path, message: `is longer than ${field.maxLength} characters${rule}` });
    }
  }
}

function checkComplex(typeName: string, value: unknown, path: string, problems: RequestProblem[]): void {
  const fields = complexTypes[typeName];
  if (!fields) throw new Error(`no complex type ${typeName} in the generated contract`);
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    problems.push({ path, message: `must be an object, got ${describe(value)}` });
    return;
  }
  const record = value as Record<string, unknown>;
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(record)) {
    // A misspelt optional field would otherwise be dropped without a word.
    if (!known.has(key) && record[key] !== undefined) problems.push({ path: `${path}.${key}`, message: `is not a field of ${typeName} (expected one of ${[...known].join(', ')})` });
  }
  for (const field of fields) checkField(field, record[field.name], `${path}.${field.name}`, problems);
}

function checkField(field: FieldDescriptor, value: unknown, path: string, problems: RequestProblem[]): void {
  const repeated = field.maxOccurs > 1;
  const values = value === undefined ? [] : repeated && Array.isArray(value) ? value : [value];
  if (repeated && value !== undefined && !Array.isArray(value)) {
    problems.push({ path, message: `must be an array, got ${describe(value)}` });
    return;
  }
  if (values.length < field.minOccurs) {
    problems.push({ path, message: field.minOccurs === 1 && !repeated ? 'is required' : `needs at least ${field.minOccurs} items` });
  }
  if (values.length > field.maxOccurs) problems.push({ path, message: `takes at most ${field.maxOccurs} items` });
  values.forEach((item, index) => {
    const itemPath = repeated ? `${path}[${index}]` : path;
    if (field.kind === 'complex') checkComplex(field.typeName, item, itemPath, problems);
    else checkScalar(field, item, itemPath, problems);
  });
}

/** Everything wrong with a message body, checked against the generated contract before anything is sent. */
export function validateRequest(elementName: string, value: unknown): RequestProblem[] {
  const typeName = elements[elementName];
  if (!typeName) throw new Error(`no element ${elementName} in the generated contract`);
  const problems: RequestProblem[] = [];
  checkComplex(typeName, value, elementName, problems);
  return problems;
}
