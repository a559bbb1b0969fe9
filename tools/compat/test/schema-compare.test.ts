import { describe, expect, it } from 'vitest';
import type { Direction } from '../src/difference.js';
import { compareDocuments, type OpenApiDocument } from '../src/openapi/index.js';
import { outcomes } from './fixtures.js';

type Schema = Record<string, unknown>;

/** A one-operation document with `schema` as the request body or the 200 response body, and extra components. */
function documentWith(direction: Direction, schema: Schema, components: Record<string, Schema> = {}): OpenApiDocument {
  const content = { 'application/json': { schema } };
  const operation =
    direction === 'request'
      ? { requestBody: { required: true, content }, responses: { '204': { description: 'Done.' } } }
      : { responses: { '200': { description: 'Done.', content } } };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: 'v1' },
    servers: [{ url: '/rest/v1' }],
    paths: { '/x': { post: operation } },
    components: { schemas: components },
  };
}

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, required });

const cases: { case: string; direction: Direction; before: Schema; after: Schema; components?: [Record<string, Schema>, Record<string, Schema>]; rules: string[] }[] = [
  { case: 'lower maxLength in a request', direction: 'request', before: str({ maxLength: 50 }), after: str({ maxLength: 10 }), rules: ['narrowed-request-type'] },
  { case: 'higher minimum in a request', direction: 'request', before: { type: 'integer', minimum: 1 }, after: { type: 'integer', minimum: 5 }, rules: ['narrowed-request-type'] },
  { case: 'changed pattern in a request', direction: 'request', before: str({ pattern: '^a' }), after: str({ pattern: '^b' }), rules: ['narrowed-request-type'] },
  { case: 'an enum appears on a request value', direction: 'request', before: str(), after: str({ enum: ['A'] }), rules: ['narrowed-request-type'] },
  { case: 'higher maxLength in a request', direction: 'request', before: str({ maxLength: 10 }), after: str({ maxLength: 50 }), rules: ['widened-request-type'] },
  { case: 'integer widened to number in a request', direction: 'request', before: { type: 'integer' }, after: { type: 'number' }, rules: ['widened-request-type'] },
  { case: 'an enum dropped from a request value', direction: 'request', before: str({ enum: ['A'] }), after: str(), rules: ['widened-request-type'] },
  { case: 'a pattern dropped from a request value', direction: 'request', before: str({ pattern: '^a' }), after: str(), rules: ['widened-request-type'] },
  { case: 'additionalProperties opened on a request', direction: 'request', before: { ...obj({ a: str() }), additionalProperties: false }, after: obj({ a: str() }), rules: ['widened-request-type'] },
  { case: 'a new value in a request enum', direction: 'request', before: str({ enum: ['A'] }), after: str({ enum: ['A', 'B'] }), rules: ['new-request-enum-value'] },
  { case: 'a new value in a response enum stays breaking', direction: 'response', before: str({ enum: ['A'] }), after: str({ enum: ['A', 'B'] }), rules: ['new-closed-response-enum-value'] },
  { case: 'integer widened to number in a response stays breaking', direction: 'response', before: { type: 'integer' }, after: { type: 'number' }, rules: ['changed-response-type'] },
  {
    case: 'a oneOf variant and its discriminator mapping added to a request',
    direction: 'request',
    before: { oneOf: [{ $ref: '#/components/schemas/Card' }], discriminator: { propertyName: 'kind', mapping: { CARD: '#/components/schemas/Card' } } },
    after: {
      oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Bank' }],
      discriminator: { propertyName: 'kind', mapping: { CARD: '#/components/schemas/Card', BANK: '#/components/schemas/Bank' } },
    },
    components: [{ Card: obj({ pan: str() }) }, { Card: obj({ pan: str() }), Bank: obj({ bsb: str() }) }],
    rules: ['widened-request-type', 'widened-request-type'],
  },
  {
    case: 'a discriminator mapping removed from a request',
    direction: 'request',
    before: { oneOf: [{ $ref: '#/components/schemas/Card' }], discriminator: { propertyName: 'kind', mapping: { CARD: '#/components/schemas/Card', OLD: '#/components/schemas/Card' } } },
    after: { oneOf: [{ $ref: '#/components/schemas/Card' }], discriminator: { propertyName: 'kind', mapping: { CARD: '#/components/schemas/Card' } } },
    components: [{ Card: obj({ pan: str() }) }, { Card: obj({ pan: str() }) }],
    rules: ['narrowed-request-type'],
  },
  {
    case: 'a oneOf variant added to a response is not on the list',
    direction: 'response',
    before: { oneOf: [{ $ref: '#/components/schemas/Card' }] },
    after: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Bank' }] },
    components: [{ Card: obj({ pan: str() }) }, { Card: obj({ pan: str() }), Bank: obj({ bsb: str() }) }],
    rules: ['unclassified-change'],
  },
  { case: 'a changed type in a response', direction: 'response', before: { type: 'integer' }, after: { type: 'number' }, rules: ['changed-response-type'] },
  { case: 'a changed format in a response', direction: 'response', before: str({ format: 'date-time' }), after: str({ format: 'date' }), rules: ['changed-response-type'] },
  { case: 'a new optional request property', direction: 'request', before: obj({ a: str() }), after: obj({ a: str(), b: str() }), rules: ['new-optional-request-parameter'] },
  { case: 'an optional request property made required', direction: 'request', before: obj({ a: str() }), after: obj({ a: str() }, ['a']), rules: ['new-required-request-field'] },
  { case: 'a new required response property', direction: 'response', before: obj({ a: str() }), after: obj({ a: str(), b: str() }, ['b']), rules: ['new-response-property'] },
  {
    case: 'a property added through allOf',
    direction: 'response',
    before: { allOf: [{ $ref: '#/components/schemas/Base' }, obj({ b: str() })] },
    after: { allOf: [{ $ref: '#/components/schemas/Base' }, obj({ b: str(), c: str() })] },
    components: [{ Base: obj({ a: str() }) }, { Base: obj({ a: str() }) }],
    rules: ['new-response-property'],
  },
  {
    case: 'a oneOf variant removed from a request',
    direction: 'request',
    before: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Bank' }] },
    after: { oneOf: [{ $ref: '#/components/schemas/Card' }] },
    components: [{ Card: obj({ pan: str() }), Bank: obj({ bsb: str() }) }, { Card: obj({ pan: str() }) }],
    rules: ['narrowed-request-type'],
  },
  {
    case: 'an identifier grown past 255 characters',
    direction: 'response',
    before: { $ref: '#/components/schemas/Identifier' },
    after: { $ref: '#/components/schemas/Identifier' },
    components: [{ Identifier: str({ maxLength: 255 }) }, { Identifier: str({ maxLength: 300 }) }],
    rules: ['unclassified-change'],
  },
  {
    case: 'an inline string is not an identifier, even when short',
    direction: 'request',
    before: str({ maxLength: 64 }),
    after: str({ maxLength: 32 }),
    rules: ['narrowed-request-type'],
  },
  {
    case: 'a schema marked x-paykit-identifier may change format',
    direction: 'request',
    before: str({ maxLength: 64, 'x-paykit-identifier': true }),
    after: str({ maxLength: 32, 'x-paykit-identifier': true }),
    rules: ['identifier-format-changed'],
  },
  {
    case: 'additionalProperties closed on a request',
    direction: 'request',
    before: obj({ a: str() }),
    after: { ...obj({ a: str() }), additionalProperties: false },
    rules: ['narrowed-request-type'],
  },
  { case: 'an unknown keyword changing', direction: 'response', before: str({ contentEncoding: 'base64' }), after: str({ contentEncoding: 'base32' }), rules: ['unclassified-change'] },
  {
    case: 'a closed response enum marked open later: not on the list, reported once',
    direction: 'response',
    before: str({ enum: ['CREDIT', 'DEBIT'] }),
    after: str({ 'x-paykit-open-enum': ['CREDIT', 'DEBIT'] }),
    rules: ['unclassified-change'],
  },
  { case: 'an unrelated vendor extension changing', direction: 'response', before: str({ 'x-other': 1 }), after: str({ 'x-other': 2 }), rules: [] },
];

describe('schemas are compared by direction', () => {
  it.each(cases)('$case ($direction)', ({ direction, before, after, components, rules }) => {
    const found = outcomes(compareDocuments(documentWith(direction, before, components?.[0]), documentWith(direction, after, components?.[1])));
    expect(found.map((o) => o.rule)).toEqual(rules);
  });

  it('a self-referencing schema changed on both sides ends, and reports the change once', () => {
    const tree = (extra: Record<string, Schema>): Schema => obj({ children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, ...extra });
    const before = documentWith('response', { $ref: '#/components/schemas/Node' }, { Node: tree({}) });
    const after = documentWith('response', { $ref: '#/components/schemas/Node' }, { Node: tree({ label: str() }) });
    expect(outcomes(compareDocuments(before, after))).toEqual([
      { rule: 'new-response-property', verdict: 'allowed', location: 'POST /x response 200 application/json body<Node>.label' },
    ]);
  });

  it('mutually recursive schemas end', () => {
    const components = { A: obj({ b: { $ref: '#/components/schemas/B' } }), B: obj({ a: { $ref: '#/components/schemas/A' } }) };
    const before = documentWith('request', { $ref: '#/components/schemas/A' }, components);
    const after = documentWith('request', { $ref: '#/components/schemas/A' }, { ...components, B: obj({ a: { $ref: '#/components/schemas/A' }, n: str() }) });
    expect(outcomes(compareDocuments(before, after)).map((o) => o.location)).toEqual(['POST /x request body application/json body<A>.b<B>.n']);
  });
});
