import { describe, expect, it } from 'vitest';
import type { FieldError } from '../src/errors/payments-error.js';
import type { SchemaNode } from '../src/generated/validation.js';
import { checkValue } from '../src/validation/schema-check.js';

// Keywords the current spec does not use (or uses only in places the client tests do not reach) still work: the
// generator accepts them, so the interpreter must honour them.
function problems(schemas: SchemaNode[], value: unknown): string[] {
  const found: FieldError[] = [];
  checkValue(schemas, 0, value, '', found);
  return found.flatMap((p) => (p.messages ?? []).map((m) => `${p.fieldName} ${m}`));
}

describe('schema interpreter', () => {
  it.each([
    { schema: [{ m: 0.01 }], value: 19.99, ok: true },
    { schema: [{ m: 0.01 }], value: 10.1, ok: true },
    { schema: [{ m: 0.01 }], value: 10.005, ok: false },
    { schema: [{ x: 10 }], value: 10, ok: true },
    { schema: [{ x: 10 }], value: 10.5, ok: false },
    { schema: [{ xx: 10 }], value: 10, ok: false },
    { schema: [{ xn: 0 }], value: 0, ok: false },
    { schema: [{ n: 1 }], value: 0, ok: false },
    { schema: [{ t: 'integer' }], value: 1.5, ok: false },
    { schema: [{ t: 'number' }], value: 2, ok: true },
    { schema: [{ t: ['string', 'null'] }], value: null, ok: true },
    { schema: [{ c: true }], value: false, ok: false },
    { schema: [{ xl: 2 }], value: '😀😀', ok: true },
    // Lengths count code points; plain length-limited strings take a shortcut that must agree with the count.
    { schema: [{ t: 'string', xl: 2 }], value: '😀😀', ok: true },
    { schema: [{ t: 'string', xl: 3 }], value: 'a😀b', ok: true },
    { schema: [{ t: 'string', xl: 2 }], value: 'a😀b', ok: false },
    { schema: [{ t: 'string', nl: 2 }], value: '😀', ok: false },
    { schema: [{ t: 'string', nl: 2 }], value: '😀a', ok: true },
    { schema: [{ t: 'string', nl: 1, xl: 255 }], value: '', ok: false },
    { schema: [{ t: 'string', nl: 1, xl: 3 }], value: 'abcd', ok: false },
    { schema: [{ t: 'string', nl: 1, xl: 3 }], value: 7, ok: false },
    { schema: [{ t: 'string', nl: 2 }], value: '\ud83d', ok: false },
    { schema: [{ t: 'array', i: 1, xi: 2 }, { t: 'string' }], value: ['a', 'b', 'c'], ok: false },
    { schema: [{ t: 'array', i: 1, ni: 1 }, { t: 'string' }], value: [], ok: false },
    { schema: [{ t: 'array', i: 1 }, { t: 'string' }], value: ['a', 2], ok: false },
    { schema: [{ any: [1, 2] }, { t: 'string' }, { t: 'number' }], value: true, ok: false },
    { schema: [{ one: [1, 2] }, { t: 'string' }, { t: 'string', xl: 3 }], value: 'ab', ok: false },
    { schema: [{ one: [1, 2] }, { t: 'string' }, { t: 'number' }], value: 'ab', ok: true },
    { schema: [{ all: [1, 2] }, { nl: 1 }, { xl: 2 }], value: 'abc', ok: false },
    { schema: [{ t: 'object', a: 1 }, { t: 'number' }], value: { extra: 'x' }, ok: false },
    { schema: [{ t: 'object', o: { self: 0 } }], value: { self: { self: { self: 1 } } }, ok: false },
    { schema: [{ f: 1 }], value: 'anything', ok: false },
  ] as { schema: SchemaNode[]; value: unknown; ok: boolean }[])('$schema with $value: ok=$ok', ({ schema, value, ok }) => {
    expect(problems(schema, value).length === 0).toBe(ok);
  });

  it.each([
    { value: 1.005, sent: 1.005, ok: false },
    { value: 0.1 + 0.2, sent: 0.3, ok: true },
    { value: 19.99, sent: 19.99, ok: true },
    { value: -0.1 - 0.2, sent: -0.3, ok: true },
    { value: Number.NaN, sent: Number.NaN, ok: false },
  ])('two decimal places (dp): $value is sent as $sent, ok=$ok', ({ value, sent, ok }) => {
    const found: FieldError[] = [];
    expect(checkValue([{ t: 'number', dp: 2 }], 0, value, 'amount', found)).toBe(sent);
    expect(found.length === 0).toBe(ok);
  });

  it('copies only the objects and arrays on the way to a rounded number, and changes none of the caller’s', () => {
    const schemas: SchemaNode[] = [{ t: 'object', o: { lines: 1, note: 3 } }, { t: 'array', i: 2 }, { t: 'number', dp: 2 }, { t: 'object' }];
    const note = { text: 'kept' };
    const value = { lines: [19.99, 0.1 + 0.2], note };
    const sent = checkValue(schemas, 0, value, '', []) as typeof value;
    expect(sent).toEqual({ lines: [19.99, 0.3], note });
    expect(sent.note).toBe(note);
    expect(value.lines[1]).toBe(0.1 + 0.2);
    const untouched = { lines: [1, 2], note };
    expect(checkValue(schemas, 0, untouched, '', [])).toBe(untouched);
  });

  it('names nested fields by path', () => {
    const schemas: SchemaNode[] = [{ t: 'object', o: { items: 1 } }, { t: 'array', i: 2 }, { t: 'object', r: ['id'] }];
    expect(problems(schemas, { items: [{ id: 1 }, {}] })).toEqual(['items[1].id is required']);
  });
});
