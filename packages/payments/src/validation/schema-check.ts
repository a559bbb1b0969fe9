import type { FieldError } from '../errors/payments-error.js';
import type { SchemaNode } from '../generated/validation.js';

/**
 * The interpreter of the generated validation data: checks a value against one schema node and collects every
 * problem with the path of the field. Values are never copied into the problems: they may be card numbers.
 */

const patterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let compiled = patterns.get(source);
  if (!compiled) patterns.set(source, (compiled = new RegExp(source, 'u')));
  return compiled;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, wanted: string | readonly string[]): boolean {
  const actual = typeOf(value);
  const types = typeof wanted === 'string' ? [wanted] : wanted;
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
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

function passes(schemas: readonly SchemaNode[], index: number, value: unknown, path: string): boolean {
  const problems: Problems = [];
  checkValue(schemas, index, value, path, problems);
  return problems.length === 0;
}

export function checkValue(
  schemas: readonly SchemaNode[],
  index: number,
  value: unknown,
  path: string,
  problems: Problems,
): void {
  const s = schemas[index];
  if (!s) return;
  const field = path || '(body)';
  if (s.f) {
    add(problems, field, 'is not allowed');
    return;
  }
  if (s.t !== undefined && !hasType(value, s.t)) {
    add(problems, field, `must be of type ${typeof s.t === 'string' ? s.t : s.t.join(' or ')}`);
    return;
  }
  if (s.e && !s.e.some((v) => same(v, value))) add(problems, field, `must be one of ${s.e.map((v) => JSON.stringify(v)).join(', ')}`);
  if ('c' in s && !same(s.c, value)) add(problems, field, `must be ${JSON.stringify(s.c)}`);

  if (typeof value === 'string') {
    const length = [...value].length;
    if (s.xl !== undefined && length > s.xl) add(problems, field, `must be at most ${s.xl} characters`);
    if (s.nl !== undefined && length < s.nl) add(problems, field, `must be at least ${s.nl} characters`);
    if (s.p !== undefined && !pattern(s.p).test(value)) add(problems, field, `must match ${s.p}`);
  } else if (typeof value === 'number') {
    if (s.x !== undefined && value > s.x) add(problems, field, `must be at most ${s.x}`);
    if (s.n !== undefined && value < s.n) add(problems, field, `must be at least ${s.n}`);
    if (s.xx !== undefined && value >= s.xx) add(problems, field, `must be less than ${s.xx}`);
    if (s.xn !== undefined && value <= s.xn) add(problems, field, `must be more than ${s.xn}`);
    // Money is a multiple of 0.01, which binary floating point cannot hold exactly: compare with a tolerance.
    if (s.m !== undefined && Math.abs(value / s.m - Math.round(value / s.m)) > 1e-8) add(problems, field, `must be a multiple of ${s.m}`);
  } else if (Array.isArray(value)) {
    if (s.xi !== undefined && value.length > s.xi) add(problems, field, `must have at most ${s.xi} items`);
    if (s.ni !== undefined && value.length < s.ni) add(problems, field, `must have at least ${s.ni} items`);
    if (s.i !== undefined) value.forEach((item, i) => checkValue(schemas, s.i!, item, `${path}[${i}]`, problems));
  } else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const prefix = path ? `${path}.` : '';
    for (const name of s.r ?? []) if (object[name] === undefined) add(problems, prefix + name, 'is required');
    for (const [name, item] of Object.entries(object)) {
      if (item === undefined) continue;
      const known = s.o?.[name];
      if (known !== undefined) checkValue(schemas, known, item, prefix + name, problems);
      else if (s.a !== undefined) checkValue(schemas, s.a, item, prefix + name, problems);
    }
  }

  if (s.if !== undefined) {
    const branch = passes(schemas, s.if, value, path) ? s.th : s.el;
    if (branch !== undefined) checkValue(schemas, branch, value, path, problems);
  }
  for (const part of s.all ?? []) checkValue(schemas, part, value, path, problems);
  if (s.any && !s.any.some((branch) => passes(schemas, branch, value, path))) add(problems, field, 'matches none of the allowed shapes');
  if (s.one) {
    if (s.d) {
      const tag = (value as Record<string, unknown> | null)?.[s.d.p];
      const branch = typeof tag === 'string' ? s.d.m[tag] : undefined;
      if (branch === undefined) {
        add(problems, (path ? `${path}.` : '') + s.d.p, `must be one of ${Object.keys(s.d.m).map((v) => JSON.stringify(v)).join(', ')}`);
      } else checkValue(schemas, branch, value, path, problems);
    } else {
      const matching = s.one.filter((branch) => passes(schemas, branch, value, path)).length;
      if (matching !== 1) add(problems, field, matching ? 'matches more than one allowed shape' : 'matches none of the allowed shapes');
    }
  }
}
