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
 * lookup caches between two calls. Each node is therefore turned once, on first use, into a `Rule` of one fixed shape
 * (patterns compiled, property tables as Maps), and the checks read only rules.
 */

/** A node made into a rule: its pattern compiled, its property tables as Maps, and what follows from its keys. */
interface Rule extends Omit<SchemaNode, 'p' | 'o'> {
  readonly p: RegExp | undefined;
  readonly pSource: string | undefined;
  readonly o: ReadonlyMap<string, number> | undefined;
  readonly hasConst: boolean;
  readonly tag: string | undefined;
  readonly tagged: ReadonlyMap<string, number> | undefined;
  readonly nothing: boolean;
  /** A string with at most length limits: the common case of parameters, checked without the general walk. */
  readonly lengthOnly: boolean;
}

/** Every key a node may have, in one order: each rule starts from it, so that every rule has the same shape. */
const everyKey: { readonly [K in keyof Required<SchemaNode>]: undefined } = {
  t: undefined, r: undefined, e: undefined, c: undefined, xl: undefined, nl: undefined, p: undefined, x: undefined,
  n: undefined, xx: undefined, xn: undefined, m: undefined, dp: undefined, xi: undefined, ni: undefined, o: undefined,
  i: undefined, a: undefined, one: undefined, any: undefined, all: undefined, d: undefined, if: undefined, th: undefined,
  el: undefined, f: undefined,
};

function makeRule(node: SchemaNode): Rule {
  const { p, o, d } = node;
  return {
    ...everyKey,
    ...node,
    p: p === undefined ? undefined : new RegExp(p, 'u'),
    pSource: p,
    o: o && new Map(Object.entries(o)),
    hasConst: 'c' in node,
    tag: d?.p,
    tagged: d && new Map(Object.entries(d.m)),
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
  const s = rules.at(index);
  if (!s) return value;
  if (s.lengthOnly && typeof value === 'string' && value.length <= (s.xl ?? Infinity) && value.length >= 2 * (s.nl ?? 0)) {
    // UTF-16 length bounds the code points: at least length/2, at most length. Only a borderline value needs counting.
    return value;
  }
  const field = path || '(body)';
  if (s.nothing) {
    add(problems, field, 'is not allowed');
    return value;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    add(problems, field, nonFinite);
    return value;
  }
  if (s.t !== undefined && !hasType(value, s.t)) {
    add(problems, field, `must be of type ${typeof s.t === 'string' ? s.t : s.t.join(' or ')}`);
    return value;
  }
  if (s.e && !s.e.some((v) => same(v, value))) add(problems, field, `must be one of ${s.e.map((v) => JSON.stringify(v)).join(', ')}`);
  if (s.hasConst && !same(s.c, value)) add(problems, field, `must be ${JSON.stringify(s.c)}`);

  let result = value;
  if (typeof value === 'string') checkString(s, value, field, problems);
  else if (typeof value === 'number') result = checkNumber(s, value, field, problems);
  else if (Array.isArray(value)) result = checkArray(rules, s, value, path, problems);
  else if (value && typeof value === 'object') result = checkObject(rules, s, value as Record<string, unknown>, path, problems);
  return checkCombinators(rules, s, result, path, problems);
}

const nonFinite = 'must be a finite number (JSON has no NaN or Infinity: it would be sent as null)';

function checkString(s: Rule, value: string, field: string, problems: Problems): void {
  const length = s.xl !== undefined || s.nl !== undefined ? codePoints(value) : 0;
  if (s.xl !== undefined && length > s.xl) add(problems, field, `must be at most ${s.xl} characters`);
  if (s.nl !== undefined && length < s.nl) add(problems, field, `must be at least ${s.nl} characters`);
  if (s.p !== undefined && !s.p.test(value)) add(problems, field, `must match ${s.pSource}`);
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
function checkNumber(s: Rule, value: number, field: string, problems: Problems): number {
  if (s.x !== undefined && value > s.x) add(problems, field, `must be at most ${s.x}`);
  if (s.n !== undefined && value < s.n) add(problems, field, `must be at least ${s.n}`);
  if (s.xx !== undefined && value >= s.xx) add(problems, field, `must be less than ${s.xx}`);
  if (s.xn !== undefined && value <= s.xn) add(problems, field, `must be more than ${s.xn}`);
  // A multiple of 0.01, which binary floating point cannot hold exactly: compared with a tolerance.
  if (s.m !== undefined && Math.abs(value / s.m - Math.round(value / s.m)) > 1e-8) add(problems, field, `must be a multiple of ${s.m}`);
  if (s.dp === undefined) return value;
  const unit = 10 ** s.dp;
  const scaled = value * unit;
  const whole = Math.round(scaled);
  if (Math.abs(scaled - whole) > roundingError(scaled)) {
    add(problems, field, `must have at most ${s.dp} decimal places`);
    return value;
  }
  // A correctly rounded division: the double nearest to the decimal value.
  return whole / unit;
}

function checkArray(rules: Rules, s: Rule, value: unknown[], path: string, problems: Problems): unknown[] {
  const field = path || '(body)';
  if (s.xi !== undefined && value.length > s.xi) add(problems, field, `must have at most ${s.xi} items`);
  if (s.ni !== undefined && value.length < s.ni) add(problems, field, `must have at least ${s.ni} items`);
  let copy: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const checked = s.i !== undefined ? check(rules, s.i, item, `${path}[${i}]`, problems) : refuseNonFinite(item, `${path}[${i}]`, problems);
    if (checked !== item) (copy ??= value.slice())[i] = checked;
  }
  return copy ?? value;
}

function checkObject(rules: Rules, s: Rule, object: Record<string, unknown>, path: string, problems: Problems): Record<string, unknown> {
  const prefix = path ? `${path}.` : '';
  if (s.r) for (const name of s.r) if (object[name] === undefined) add(problems, prefix + name, 'is required');
  let copy: Record<string, unknown> | undefined;
  for (const name in object) {
    const item = object[name];
    if (item === undefined || !Object.hasOwn(object, name)) continue;
    const known = s.o?.get(name) ?? s.a;
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
function checkCombinators(rules: Rules, s: Rule, value: unknown, path: string, problems: Problems): unknown {
  const field = path || '(body)';
  let result = value;
  if (s.if !== undefined) {
    const branch = passes(rules, s.if, result, path) ? s.th : s.el;
    if (branch !== undefined) result = check(rules, branch, result, path, problems);
  }
  if (s.all) for (const part of s.all) result = check(rules, part, result, path, problems);
  if (s.any) {
    const matching = s.any.find((branch) => passes(rules, branch, result, path));
    if (matching === undefined) add(problems, field, 'matches none of the allowed shapes');
    else result = check(rules, matching, result, path, problems);
  }
  if (s.one) {
    if (s.tagged) {
      const tag = (result as Record<string, unknown> | null)?.[s.tag!];
      const branch = typeof tag === 'string' ? s.tagged.get(tag) : undefined;
      if (branch === undefined) {
        add(problems, (path ? `${path}.` : '') + s.tag, `must be one of ${[...s.tagged.keys()].map((v) => JSON.stringify(v)).join(', ')}`);
      } else result = check(rules, branch, result, path, problems);
    } else {
      const matching = s.one.filter((branch) => passes(rules, branch, result, path));
      if (matching.length !== 1) add(problems, field, matching.length ? 'matches more than one allowed shape' : 'matches none of the allowed shapes');
      else result = check(rules, matching[0]!, result, path, problems);
    }
  }
  return result;
}
