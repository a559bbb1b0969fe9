import { durationMs } from './duration.js';

/**
 * The kinds of value a rule's field can hold in the spec: an HTTP status code or a list of them, a yes/no, a duration
 * (ISO 8601, read as milliseconds under the field's name plus `Ms`), a whole number, a list of values of an open
 * string field (`values`: empty when the reference names none, which is itself a rule).
 */
export type FieldKind = 'status' | 'statuses' | 'boolean' | 'duration' | 'count' | 'values';
export type RuleShape = Readonly<Record<string, FieldKind>>;
export type RuleShapes = Readonly<Record<string, RuleShape>>;

type FieldValue<K extends FieldKind> = K extends 'statuses'
  ? readonly number[]
  : K extends 'values'
    ? readonly string[]
    : K extends 'boolean'
      ? boolean
      : number;

const isStatus = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599;

/** One rule as code reads it: its fields, durations renamed to `<name>Ms`, and the description the spec gives. */
export type Rule<S extends RuleShape> = {
  readonly [F in keyof S as S[F] extends 'duration' ? `${F & string}Ms` : F]: FieldValue<S[F]>;
} & { readonly description: string };

export type Rules<S extends RuleShapes> = { readonly [R in keyof S]: Rule<S[R]> };

/** The name of the OpenAPI extension that carries the reference's rules at the root of a contract. */
export const rulesExtension = 'x-paykit-rules';

export class RulesError extends Error {
  override readonly name = 'RulesError';
}

function readField(where: string, kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'status':
      if (isStatus(value)) return value;
      throw new RulesError(`${where} must be an HTTP status code`);
    case 'statuses':
      if (Array.isArray(value) && value.length > 0 && value.every(isStatus)) return value;
      throw new RulesError(`${where} must be a non-empty list of HTTP status codes`);
    case 'values':
      if (Array.isArray(value) && value.every((item) => typeof item === 'string' && item.trim() !== '')) return value;
      throw new RulesError(`${where} must be a list (empty or not) of non-empty strings`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      throw new RulesError(`${where} must be true or false`);
    case 'count':
      if (Number.isInteger(value) && (value as number) >= 0) return value;
      throw new RulesError(`${where} must be a whole number`);
    case 'duration': {
      const ms = typeof value === 'string' ? durationMs(value) : undefined;
      if (ms !== undefined) return ms;
      throw new RulesError(`${where} must be an ISO 8601 duration in days, hours, minutes and seconds (e.g. PT20S, P730D)`);
    }
  }
}

/**
 * Reads the `x-paykit-rules` of a bundled contract against the shapes its readers expect: every rule and field must
 * be there with the right kind of value, and every rule needs a description. Unknown fields are refused too, so that
 * a typo in the spec cannot silently leave a default in force.
 */
export function readRules<S extends RuleShapes>(document: Record<string, unknown>, shapes: S, contract: string): Rules<S> {
  const block = document[rulesExtension];
  if (!block || typeof block !== 'object') throw new RulesError(`${contract}: the contract has no ${rulesExtension} object`);
  const rules: Record<string, Record<string, unknown>> = {};
  for (const [ruleName, shape] of Object.entries(shapes)) {
    const where = `${contract}: ${rulesExtension}.${ruleName}`;
    const given = (block as Record<string, unknown>)[ruleName];
    if (!given || typeof given !== 'object') throw new RulesError(`${where} is missing`);
    const source = given as Record<string, unknown>;
    if (typeof source.description !== 'string' || !source.description.trim()) throw new RulesError(`${where}.description is missing`);
    const rule: Record<string, unknown> = { description: source.description.trim() };
    for (const [field, kind] of Object.entries(shape)) {
      if (!(field in source)) throw new RulesError(`${where}.${field} is missing`);
      rule[kind === 'duration' ? `${field}Ms` : field] = readField(`${where}.${field}`, kind, source[field]);
    }
    const unknown = Object.keys(source).filter((field) => field !== 'description' && !(field in shape));
    if (unknown.length) throw new RulesError(`${where} has fields no reader knows: ${unknown.join(', ')}`);
    rules[ruleName] = rule;
  }
  const extra = Object.keys(block).filter((name) => !(name in shapes));
  if (extra.length) throw new RulesError(`${contract}: ${rulesExtension} has rules no reader knows: ${extra.join(', ')}`);
  return rules as Rules<S>;
}
