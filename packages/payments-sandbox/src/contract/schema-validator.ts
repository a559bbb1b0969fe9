import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { nodeAt, resolvePointer, type OpenApiDocument } from './contract.js';
import { paymentsSensitive, type SensitiveKind, type SensitiveTable } from '../generated/sensitive.js';
import { describeKept, kindOfField } from '../rules/sensitive.js';
import type { FieldProblem } from '../rules/api-error.js';

export type { FieldProblem };

const require = createRequire(import.meta.url);

/**
 * ajv and its formats are loaded on the first check rather than at start-up (they take a few hundred milliseconds
 * to load and set up): a sandbox answers its first requests in well under a second. Both are CommonJS, so they can
 * be required synchronously when first needed.
 */
function createAjv(): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const formats = require('ajv-formats') as { default?: unknown };
  const addFormats = (formats.default ?? formats) as (ajv: Ajv2020) => void;
  // strict off: OpenAPI keeps its own keywords (discriminator, example, x-...) beside JSON Schema's. The contract's
  // components are not themselves a JSON Schema document, so they are not checked against the meta-schema.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, validateSchema: false });
  addFormats(ajv);
  return ajv;
}


type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function valueAt(value: unknown, segments: string[]): unknown {
  return segments.reduce<unknown>((at, key) => (isNode(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined), value);
}

/**
 * A value as a field error shows it. Card details are never echoed in full, even by a sandbox: what the contract
 * marks (by the field's name, or the whole body's mark) is shown as it is kept (`rules/sensitive.ts`).
 */
function describeValue(fieldName: string, value: unknown, table: SensitiveTable, bodyKind: SensitiveKind | undefined): string {
  if (value === undefined) return '';
  return describeKept(value, bodyKind ?? kindOfField(fieldName, table), table);
}

/** Messages a payer or developer can read, from ajv's keywords. */
function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'false schema':
      return 'is not allowed here';
    case 'enum':
      return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * Checks values against the schemas of the contract with ajv (JSON Schema 2020-12 and formats). The whole document is
 * registered once, so every `$ref` resolves; each schema is compiled the first time it is used. A schema with a
 * `discriminator` is checked against the branch its mapping names, so that problems name that branch's fields rather
 * than every branch's.
 */
export class SchemaValidator {
  private instance: Ajv2020 | undefined;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly pointers = new Map<string, { pointer: string; discriminated: boolean }>();
  private readonly documentId = 'https://sandbox.paykit.test/payments.json';

  constructor(
    private readonly document: OpenApiDocument,
    /** The contract's sensitive marks (its generated table): what a field error may echo of a value. */
    private readonly marks: SensitiveTable = paymentsSensitive,
  ) {}

  private get ajv(): Ajv2020 {
    if (!this.instance) {
      this.instance = createAjv();
      // Only the components are registered: every reference of the contract points into them, and ajv resolves and
      // compiles far faster without the paths around them.
      this.instance.addSchema({ $id: this.documentId, components: this.document.components });
    }
    return this.instance;
  }

  /** Problems of `value` against the schema at `pointer` (empty when valid); `bodyKind`: the whole value is marked. */
  check(pointer: string, value: unknown, bodyKind?: SensitiveKind): FieldProblem[] {
    const resolved = this.resolved(pointer);
    const target = resolved.discriminated ? this.narrow(resolved.pointer, value, bodyKind) : resolved.pointer;
    if (typeof target !== 'string') return [target];
    const validate = this.validatorAt(target);
    if (validate(value)) return [];
    return this.problems(validate.errors ?? [], value, bodyKind);
  }

  /** Where a pointer's `$ref`s lead and whether a discriminator picks a branch there: read once per pointer. */
  private resolved(pointer: string): { pointer: string; discriminated: boolean } {
    let found = this.pointers.get(pointer);
    if (!found) {
      const at = resolvePointer(this.document, pointer);
      const schema = nodeAt(this.document, at);
      found = { pointer: at, discriminated: isNode(schema) && isNode(schema.discriminator) };
      this.pointers.set(pointer, found);
    }
    return found;
  }

  private narrow(pointer: string, value: unknown, bodyKind: SensitiveKind | undefined): string | FieldProblem {
    for (let hops = 0; hops < 8; hops++) {
      const schema = nodeAt(this.document, pointer);
      const discriminator = isNode(schema) ? schema.discriminator : undefined;
      if (!isNode(discriminator) || !isNode(discriminator.mapping) || !isNode(value)) return pointer;
      const property = String(discriminator.propertyName);
      const chosen = value[property];
      const target = typeof chosen === 'string' ? discriminator.mapping[chosen] : undefined;
      if (typeof target !== 'string') {
        const allowed = Object.keys(discriminator.mapping).map((v) => JSON.stringify(v)).join(', ');
        return { fieldName: property, fieldValue: describeValue(property, chosen, this.marks, bodyKind), messages: [chosen === undefined ? 'is required' : `must be one of ${allowed}`] };
      }
      pointer = resolvePointer(this.document, target);
    }
    return pointer;
  }

  private validatorAt(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = pointer.startsWith('#/components/')
        ? this.ajv.compile({ $ref: `${this.documentId}${pointer}` })
        : // A schema written inline in a path or a webhook: compiled as it is, its references made absolute.
          this.ajv.compile(this.absolute(nodeAt(this.document, pointer)) as object);
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private absolute(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.absolute(item));
    if (!isNode(schema)) return schema;
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#') ? this.documentId + value : this.absolute(value)]),
    );
  }

  private problems(errors: ErrorObject[], value: unknown, bodyKind: SensitiveKind | undefined): FieldProblem[] {
    // `if`, `oneOf` and `anyOf` only say that their branches failed: the branches' own errors say why.
    const specific = errors.filter((e) => !['if', 'oneOf', 'anyOf', 'allOf'].includes(e.keyword));
    const byField = new Map<string, FieldProblem>();
    for (const error of specific.length ? specific : errors) {
      const segments = error.instancePath.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      const extra = (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
        (error.params as { additionalProperty?: string }).additionalProperty;
      if (extra !== undefined) segments.push(extra);
      const fieldName = segments.join('.');
      const problem = byField.get(fieldName) ?? { fieldName, fieldValue: describeValue(fieldName, valueAt(value, segments), this.marks, bodyKind), messages: [] };
      const message = messageOf(error);
      if (!problem.messages.includes(message)) problem.messages.push(message);
      byField.set(fieldName, problem);
    }
    return [...byField.values()];
  }
}
