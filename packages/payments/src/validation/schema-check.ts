import type { FieldError } from '../errors/payments-error.js';
import type { SchemaNode } from '../generated/validation.js';

/**
 * The interpreter of the generated validation data: checks a value against one schema node and collects every
 * problem with the path of the field. Values are never copied into the problems: they may be card numbers.
 *
 * A check returns the value to send: the value itself, or, when a number is within floating-point error of the
 * decimal places its schema allows (`0.1 + 0.2` for two places), a copy with that number rounded (0.3). The caller's
 * objects are never changed.
 *
 * The generated nodes are compact literals of many different shapes, which makes every property read on them
 * megamorphic: cheap in a tight loop, but around a microsecond per check in a real request, where fetch evicts V8's
 * lookup caches between two calls. Each node is therefore decoded once, on first use, into a `Rule` of one fixed shape
 * under JSON Schema's names (patterns compiled, property tables as Maps), and the checks read only rules.
 */

/**
 * A node decoded into a rule, under JSON Schema's own names. The generated data keeps short keys (`t`, `xl`, `o`...,
 * listed on `SchemaNode` in generated/validation.ts): they save ~50 B gzipped in a browser bundle that carries the
 * publishable checks (4,492 B against 4,544 B with the long names, measured with esbuild). `makeRule` is the one place
 * that reads them; everything below reads rules only.
 */
interface Rule {
  readonly type: string | readonly string[] | undefined;
  readonly required: readonly string[] | undefined;
  readonly enum: readonly unknown[] | undefined;
  /** Whether the node has a `const` (which may be any value, `undefined` excepted, null included). */
  readonly hasConst: boolean;
  readonly const: unknown;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: RegExp | undefined;
  /** The pattern as the spec writes it, for the message. */
  readonly patternSource: string | undefined;
  readonly maximum: number | undefined;
  readonly minimum: number | undefined;
  readonly exclusiveMaximum: number | undefined;
  readonly exclusiveMinimum: number | undefined;
  readonly multipleOf: number | undefined;
  /** `x-paykit-decimal-places`: the most decimal places a number may have. */
  readonly decimalPlaces: number | undefined;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  /** Property name -> node index. */
  readonly properties: ReadonlyMap<string, number> | undefined;
  /** The node index every item of an array is checked against. */
  readonly items: number | undefined;
  /** The node index every property not in `properties` is checked against. */
  readonly additionalProperties: number | undefined;
  readonly oneOf: readonly number[] | undefined;
  readonly anyOf: readonly number[] | undefined;
  readonly allOf: readonly number[] | undefined;
  /** A `oneOf`'s discriminator: the property that names the branch, and each value's branch (a node index). */
  readonly discriminator: string | undefined;
  readonly branchByValue: ReadonlyMap<string, number> | undefined;
  readonly if: number | undefined;
  readonly then: number | undefined;
  readonly else: number | undefined;
  /** The `false` schema: no value is allowed. */
  readonly nothing: boolean;
  /** A string with at most length limits: the common case of parameters, checked without the general walk. */
  readonly lengthOnly: boolean;
}

/**
 * Decodes a generated node. Every rule is this one object literal, every key in the same order: all rules have one
 * shape, whichever keys their node has.
 */
function makeRule(node: SchemaNode): Rule {
  const { p: pattern, o: properties, d: discriminator } = node;
  return {
    type: node.t,
    required: node.r,
    enum: node.e,
    hasConst: 'c' in node,
    const: node.c,
    maxLength: node.xl,
    minLength: node.nl,
    pattern: pattern === undefined ? undefined : new RegExp(pattern, 'u'),
    patternSource: pattern,
    maximum: node.x,
    minimum: node.n,
    exclusiveMaximum: node.xx,
    exclusiveMinimum: node.xn,
    multipleOf: node.m,
    decimalPlaces: node.dp,
    maxItems: node.xi,
    minItems: node.ni,
    properties: properties && new Map(Object.entries(properties)),
    items: node.i,
    additionalProperties: node.a,
    oneOf: node.one,
    anyOf: node.any,
    allOf: node.all,
    discriminator: discriminator?.p,
    branchByValue: discriminator && new Map(Object.entries(discriminator.m)),
    if: node.if,
    then: node.th,
    else: node.el,
    nothing: node.f === 1,
    lengthOnly: node.t === 'string' && Object.keys(node).every((key) => key === 't' || key === 'xl' || key === 'nl'),
  };
}

/** A schema table's rules, made as they are first needed. */
export class Rules {
  private declare readonly made: (Rule | undefined)[];
  private declare readonly nodes: readonly SchemaNode[];

  constructor(nodes: readonly SchemaNode[]) {
    this.nodes = nodes;
    this.made = new Array<Rule | undefined>(nodes.length).fill(undefined);
  }

  at(index: number): Rule | undefined {
    const made = this.made[index];
    if (made) return made;
    const node = this.nodes[index];
    return node ? (this.made[index] = makeRule(node)) : undefined;
  }
}

const rulesOfTable = new WeakMap<readonly SchemaNode[], Rules>();

export function rulesOf(schemas: readonly SchemaNode[]): Rules {
  let rules = rulesOfTable.get(schemas);
  if (!rules) rulesOfTable.set(schemas, (rules = new Rules(schemas)));
  return rules;
}

/** Length in code points, as JSON Schema counts it, without building an array of characters. */
function codePoints(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, wanted: string | readonly string[]): boolean {
  const actual = typeOf(value);
  if (typeof wanted === 'string') return wanted === actual || (actual === 'integer' && wanted === 'number');
  return wanted.includes(actual) || (actual === 'integer' && wanted.includes('number'));
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

type Problems = FieldError[];

function add(problems: Problems, fieldName: string, message: string): void {
  const existing = problems.find((p) => p.fieldName === fieldName);
  if (existing) existing.messages = [...(existing.messages ?? []), message];
  else problems.push({ fieldName, messages: [message] });
}

function passes(rules: Rules, index: number, value: unknown, path: string): boolean {
  const problems: Problems = [];
  check(rules, index, value, path, problems);
  return problems.length === 0;
}

/** Checks `value` against node `index` of a generated schema table and adds what is wrong to `problems`. */
export function checkValue(
  schemas: readonly SchemaNode[],
  index: number,
  value: unknown,
  path: string,
  problems: Problems,
): unknown {
  return check(rulesOf(schemas), index, value, path, problems);
}

/** `checkValue` on a table's rules, for callers that hold them. Returns the value to send (see above). */
export function check(rules: Rules, index: number, value: unknown, path: string, problems: Problems): unknown {
  const rule = rules.at(index);
  if (!rule) return value;
  if (rule.lengthOnly && typeof value === 'string' && value.length <= (rule.maxLength ?? Infinity) && value.length >= 2 * (rule.minLength ?? 0)) {
    // UTF-16 length bounds the code points: at least length/2, at most length. Only a borderline value needs counting.
    return value;
  }
  const field = path || '(body)';
  if (rule.nothing) {
    add(problems, field, 'is not allowed');
    return value;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    add(problems, field, nonFinite);
    return value;
  }
  if (rule.type !== undefined && !hasType(value, rule.type)) {
    add(problems, field, `must be of type ${typeof rule.type === 'string' ? rule.type : rule.type.join(' or ')}`);
    return value;
  }
  if (rule.enum && !rule.enum.some((v) => same(v, value))) add(problems, field, `must be one of ${rule.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (rule.hasConst && !same(rule.const, value)) add(problems, field, `must be ${JSON.stringify(rule.const)}`);

  let result = value;
  if (typeof value === 'string') checkString(rule, value, field, problems);
  else if (typeof value === 'number') result = checkNumber(rule, value, field, problems);
  else if (Array.isArray(value)) result = checkArray(rules, rule, value, path, problems);
  else if (value && typeof value === 'object') result = checkObject(rules, rule, value as Record<string, unknown>, path, problems);
  return checkCombinators(rules, rule, result, path, problems);
}

const nonFinite = 'must be a finite number (JSON has no NaN or Infinity: it would be sent as null)';

function checkString(rule: Rule, value: string, field: string, problems: Problems): void {
  const length = rule.maxLength !== undefined || rule.minLength !== undefined ? codePoints(value) : 0;
  if (rule.maxLength !== undefined && length > rule.maxLength) add(problems, field, `must be at most ${rule.maxLength} characters`);
  if (rule.minLength !== undefined && length < rule.minLength) add(problems, field, `must be at least ${rule.minLength} characters`);
  if (rule.pattern !== undefined && !rule.pattern.test(value)) add(problems, field, `must match ${rule.patternSource}`);
}

/**
 * How far from a whole number of its smallest unit (a cent for two places) a number may be and still count as
 * floating-point error: a millionth of the unit, or four units in the last place for numbers so large that their
 * last place is coarser. `0.1 + 0.2` (0.30000000000000004) is 0.3; 10.001 is a tenth of a cent too fine.
 */
function roundingError(scaled: number): number {
  return Math.max(1e-6, Math.abs(scaled) * 4 * Number.EPSILON);
}

/** Checks a finite number; returns it, or the number of allowed decimal places it is within floating-point error of. */
function checkNumber(rule: Rule, value: number, field: string, problems: Problems): number {
  if (rule.maximum !== undefined && value > rule.maximum) add(problems, field, `must be at most ${rule.maximum}`);
  if (rule.minimum !== undefined && value < rule.minimum) add(problems, field, `must be at least ${rule.minimum}`);
  if (rule.exclusiveMaximum !== undefined && value >= rule.exclusiveMaximum) add(problems, field, `must be less than ${rule.exclusiveMaximum}`);
  if (rule.exclusiveMinimum !== undefined && value <= rule.exclusiveMinimum) add(problems, field, `must be more than ${rule.exclusiveMinimum}`);
  // A multiple of 0.01, which binary floating point cannot hold exactly: compared with a tolerance.
  const { multipleOf } = rule;
  if (multipleOf !== undefined && Math.abs(value / multipleOf - Math.round(value / multipleOf)) > 1e-8) add(problems, field, `must be a multiple of ${multipleOf}`);
  if (rule.decimalPlaces === undefined) return value;
  const unit = 10 ** rule.decimalPlaces;
  const scaled = value * unit;
  const whole = Math.round(scaled);
  if (Math.abs(scaled - whole) > roundingError(scaled)) {
    add(problems, field, `must have at most ${rule.decimalPlaces} decimal places`);
    return value;
  }
  // A correctly rounded division: the double nearest to the decimal value.
  return whole / unit;
}

function checkArray(rules: Rules, rule: Rule, value: unknown[], path: string, problems: Problems): unknown[] {
  const field = path || '(body)';
  if (rule.maxItems !== undefined && value.length > rule.maxItems) add(problems, field, `must have at most ${rule.maxItems} items`);
  if (rule.minItems !== undefined && value.length < rule.minItems) add(problems, field, `must have at least ${rule.minItems} items`);
  let copy: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const checked = rule.items !== undefined ? check(rules, rule.items, item, `${path}[${i}]`, problems) : refuseNonFinite(item, `${path}[${i}]`, problems);
    if (checked !== item) (copy ??= value.slice())[i] = checked;
  }
  return copy ?? value;
}

function checkObject(rules: Rules, rule: Rule, object: Record<string, unknown>, path: string, problems: Problems): Record<string, unknown> {
  const prefix = path ? `${path}.` : '';
  if (rule.required) for (const name of rule.required) if (object[name] === undefined) add(problems, prefix + name, 'is required');
  let copy: Record<string, unknown> | undefined;
  for (const name in object) {
    const item = object[name];
    if (item === undefined || !Object.hasOwn(object, name)) continue;
    const known = rule.properties?.get(name) ?? rule.additionalProperties;
    // A field the spec does not describe travels unchecked (the service may add optional ones within v1), but a
    // NaN in it would still arrive as null.
    const checked = known !== undefined ? check(rules, known, item, prefix + name, problems) : refuseNonFinite(item, prefix + name, problems);
    if (checked !== item) (copy ??= { ...object })[name] = checked;
  }
  return copy ?? object;
}

/** Refuses NaN and infinities anywhere in a value no schema describes: JSON would turn them into null. */
function refuseNonFinite(value: unknown, path: string, problems: Problems): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) add(problems, path || '(body)', nonFinite);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) refuseNonFinite(value[i], `${path}[${i}]`, problems);
  } else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const name of Object.keys(value)) refuseNonFinite((value as Record<string, unknown>)[name], path ? `${path}.${name}` : name, problems);
  }
  return value;
}

/** `if`/`then`/`else`, `allOf`, `anyOf` and `oneOf`; each branch that applies may return a value to send instead. */
function checkCombinators(rules: Rules, rule: Rule, value: unknown, path: string, problems: Problems): unknown {
  const field = path || '(body)';
  let result = value;
  if (rule.if !== undefined) {
    const branch = passes(rules, rule.if, result, path) ? rule.then : rule.else;
    if (branch !== undefined) result = check(rules, branch, result, path, problems);
  }
  if (rule.allOf) for (const part of rule.allOf) result = check(rules, part, result, path, problems);
  if (rule.anyOf) {
    const matching = rule.anyOf.find((branch) => passes(rules, branch, result, path));
    if (matching === undefined) add(problems, field, 'matches none of the allowed shapes');
    else result = check(rules, matching, result, path, problems);
  }
  if (rule.oneOf) {
    if (rule.branchByValue) {
      const tag = (result as Record<string, unknown> | null)?.[rule.discriminator!];
      const branch = typeof tag === 'string' ? rule.branchByValue.get(tag) : undefined;
      if (branch === undefined) {
        add(problems, (path ? `${path}.` : '') + rule.discriminator, `must be one of ${[...rule.branchByValue.keys()].map((v) => JSON.stringify(v)).join(', ')}`);
      } else result = check(rules, branch, result, path, problems);
    } else {
      const matching = rule.oneOf.filter((branch) => passes(rules, branch, result, path));
      if (matching.length !== 1) add(problems, field, matching.length ? 'matches more than one allowed shape' : 'matches none of the allowed shapes');
      else result = check(rules, matching[0]!, result, path, problems);
    }
  }
  return result;
}
