import { describe, expect, it } from 'vitest';
import { idempotencyKeyExtension, IdempotencyKeyError } from '../src/openapi/idempotency-key.js';
import { openApiModel, readOpenApiContract } from '../src/openapi/read-contract.js';
import type { OpenApiDocument } from '../src/openapi/document.js';
import { paymentsContract } from '../src/registry.js';

const keySchema = { type: 'string', maxLength: 60 };
const marked = (name: string, extra: Record<string, unknown> = {}) => ({ name, in: 'header', schema: keySchema, [idempotencyKeyExtension]: true, ...extra });

/** A contract whose operations take the given parameters (a path per operation, POST each). */
function contract(parameters: Record<string, unknown[]>, components: Record<string, unknown> = {}): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(parameters).map(([operationId, list]) => [`/${operationId}`, { post: { operationId, parameters: list, responses: {} } }]),
  );
  return { openapi: '3.1.0', paths, components } as OpenApiDocument;
}

describe('the idempotency key of a contract', () => {
  it('is the header its operations mark, found by the mark whatever it is called', () => {
    const model = openApiModel(
      contract(
        { createA: [{ $ref: '#/components/parameters/Key' }], createB: [marked('x-request-key')], listC: [{ name: 'Idempotency-Key', in: 'header', schema: keySchema }] },
        { parameters: { Key: marked('X-Request-Key') } },
      ),
    );
    expect(model.idempotencyKey).toEqual({ header: 'X-Request-Key', schema: keySchema, schemaPointer: '#/components/parameters/Key/schema', operationIds: ['createA', 'createB'] });
    // The unmarked header of listC is not the key, whatever its name says.
    expect(model.operations.map((o) => [o.operationId, o.idempotencyHeader])).toEqual([
      ['createA', 'X-Request-Key'],
      ['createB', 'x-request-key'],
      ['listC', undefined],
    ]);
  });

  it('is the path item\'s marked parameter on each of its operations (a path holding `%` too), its schema pointer where the $refs end', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/a%7Bb': {
          parameters: [{ $ref: '#/components/parameters/Key' }],
          post: { operationId: 'createA', responses: {} },
          put: { operationId: 'replaceA', responses: {} },
        },
      },
      components: { parameters: { Key: { name: 'K', in: 'header', [idempotencyKeyExtension]: true, schema: { $ref: '#/components/schemas/Key' } } }, schemas: { Key: keySchema } },
    } as OpenApiDocument;
    const model = openApiModel(document);
    expect(model.idempotencyKey).toMatchObject({ header: 'K', schema: keySchema, schemaPointer: '#/components/schemas/Key', operationIds: ['replaceA', 'createA'] });
  });

  it('is undefined when nothing is marked', () => {
    expect(openApiModel(contract({ createA: [{ name: 'Idempotency-Key', in: 'header' }] })).idempotencyKey).toBeUndefined();
  });

  it.each<{ case: string; parameters: Record<string, unknown[]>; message: string }>([
    { case: 'a mark that is not true', parameters: { createA: [marked('K', { [idempotencyKeyExtension]: 'yes' })] }, message: 'POST /createA parameter K: x-paykit-idempotency-key must be true' },
    { case: 'a marked query parameter', parameters: { createA: [marked('k', { in: 'query' })] }, message: 'POST /createA parameter k: x-paykit-idempotency-key marks a query parameter' },
    { case: 'two headers marked on one operation', parameters: { createA: [marked('K'), marked('L')] }, message: 'POST /createA marks K and L as its idempotency key' },
    { case: 'two headers marked on two operations', parameters: { createA: [marked('K')], createB: [marked('L')] }, message: 'marks more than one header (createA: K, createB: L)' },
    { case: 'one header with two schemas', parameters: { createA: [marked('K')], createB: [marked('k', { schema: { type: 'string' } })] }, message: 'the idempotency key K has different schemas on different operations: [createA] and [createB]' },
  ])('refuses $case, naming where', ({ parameters, message }) => {
    const read = () => openApiModel(contract(parameters));
    expect(read).toThrow(IdempotencyKeyError);
    expect(read).toThrow(message);
  });

  // Bundles the real contract with Redocly (a second or two; 30 s bounds a loaded 2-core machine).
  it('of the payments contract is taken by every POST and only marked once', { timeout: 30_000 }, async () => {
    const model = await readOpenApiContract(paymentsContract);
    const key = model.idempotencyKey!;
    expect(key.header).toMatch(/\S/);
    const posts = model.operations.filter((o) => o.method === 'post').map((o) => o.operationId);
    expect(posts.length).toBeGreaterThan(0);
    expect(key.operationIds).toEqual(expect.arrayContaining(posts));
    expect(model.nodeAt(key.schemaPointer!)).toBe(key.schema);
  });
});
