import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { HTTP_METHODS, type OpenApiDocument } from '../src/openapi/document.js';
import { openApiModel, readOpenApiContract, type OpenApiContractModel } from '../src/openapi/read-contract.js';
import { inlineRefs, nodeAt, OpenApiReferenceError, pointerTo, resolvePointer, resolveRef } from '../src/openapi/refs.js';
import { fileExchangeContract, paymentsContract } from '../src/registry.js';

const schemas = (map: Record<string, unknown>): OpenApiDocument => ({ openapi: '3.1.0', paths: {}, components: { schemas: map } }) as OpenApiDocument;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('resolveRef', () => {
  const document = schemas({
    'a/b': { type: 'string', description: 'slash in the name' },
    'c~d': { type: 'integer' },
    '{id}': { type: 'boolean' },
    Alias: ref('Target'),
    Target: { type: 'string', description: 'the target', maxLength: 4 },
    Self: ref('Self'),
    Ping: ref('Pong'),
    Pong: ref('Ping'),
    List: { type: 'array' },
  });

  it.each([
    { case: '~1 is a slash', value: { $ref: '#/components/schemas/a~1b' }, node: { type: 'string', description: 'slash in the name' }, name: 'a/b' },
    { case: '~0 is a tilde', value: { $ref: '#/components/schemas/c~0d' }, node: { type: 'integer' }, name: 'c~d' },
    { case: 'percent-encoded braces', value: { $ref: '#/components/schemas/%7Bid%7D' }, node: { type: 'boolean' }, name: '{id}' },
    { case: 'a chain to its end', value: ref('Alias'), node: { type: 'string', description: 'the target', maxLength: 4 }, name: 'Target' },
    {
      case: 'sibling keywords override the target (3.1)',
      value: { $ref: '#/components/schemas/Alias', description: 'here' },
      node: { type: 'string', description: 'here', maxLength: 4 },
      name: 'Target',
    },
    { case: 'a value without $ref is itself', value: { type: 'null' }, node: { type: 'null' }, name: undefined },
  ])('$case', ({ value, node, name }) => {
    const resolved = resolveRef(document, value);
    expect(resolved?.node).toEqual(node);
    expect(resolved?.name).toBe(name);
  });

  it('returns the target itself, not a copy, when no keyword sits beside the $ref', () => {
    expect(resolveRef(document, ref('Target'))?.node).toBe((document.components!.schemas as Record<string, unknown>).Target);
  });

  it.each([
    { case: 'a self reference', value: ref('Self'), message: 'reference cycle through #/components/schemas/Self' },
    { case: 'a two-step cycle', value: ref('Ping'), message: 'reference cycle through #/components/schemas/Ping' },
    { case: 'a missing target', value: ref('Missing'), message: 'unresolvable reference #/components/schemas/Missing' },
    { case: 'an external file', value: { $ref: 'other.yaml#/Thing' }, message: 'only local references are read' },
  ])('refuses $case', ({ value, message }) => {
    expect(() => resolveRef(document, value)).toThrow(OpenApiReferenceError);
    expect(() => resolveRef(document, value)).toThrow(message);
  });

  it('gives undefined for what is not an object', () => {
    for (const value of [undefined, null, 'x', 3, []]) expect(resolveRef(document, value)).toBeUndefined();
  });
});

describe('pointers', () => {
  const document = { paths: { '/a/{id}': { get: { parameters: [{ $ref: '#/components/parameters/Id' }] } } }, components: { parameters: { Id: { name: 'id' } } } };

  it('writes and reads escaped segments', () => {
    expect(pointerTo('paths', '/a/{id}', 'get')).toBe('#/paths/~1a~1{id}/get');
    expect(nodeAt(document, pointerTo('paths', '/a/{id}', 'get', 'parameters', '0'))).toEqual({ $ref: '#/components/parameters/Id' });
    expect(nodeAt(document, '#')).toBe(document);
  });

  it('follows references to the pointer they end on, and stops at a cycle', () => {
    expect(resolvePointer(document, '#/paths/~1a~1{id}/get/parameters/0')).toBe('#/components/parameters/Id');
    expect(resolvePointer(document, '#/components/parameters/Id')).toBe('#/components/parameters/Id');
    expect(() => resolvePointer(schemas({ A: ref('B'), B: ref('A') }), '#/components/schemas/A')).toThrow('reference cycle');
  });
});

describe('inlineRefs', () => {
  it('replaces references and leaves recursion as a $ref, so the copy is finite', () => {
    const document = schemas({
      Node: { type: 'object', properties: { children: { type: 'array', items: ref('Node') }, label: ref('Label') } },
      Label: { type: 'string' },
    });
    expect(inlineRefs(document, ref('Node'))).toEqual({
      type: 'object',
      properties: { children: { type: 'array', items: ref('Node') }, label: { type: 'string' } },
    });
  });

  it('breaks a cycle through two schemas at the first one met again', () => {
    const document = schemas({ A: { properties: { b: ref('B') } }, B: { properties: { a: ref('A') } } });
    expect(inlineRefs(document, ref('A'))).toEqual({ properties: { b: { properties: { a: ref('A') } } } });
  });
});

const fixture = fileURLToPath(new URL('./fixtures/openapi-split/openapi.yaml', import.meta.url));

describe('readOpenApiContract on a contract split over files', () => {
  let model: OpenApiContractModel;
  it('bundles the files and reads the operations in path order, then method order', async () => {
    model = await readOpenApiContract(fixture, { cwd: fileURLToPath(new URL('./fixtures/openapi-split/', import.meta.url)) });
    expect(model.operations.map((o) => [o.operationId, o.method, o.path])).toEqual([
      ['getWidget', 'get', '/widgets/{widgetId}'],
      ['replaceWidget', 'put', '/widgets/{widgetId}'],
      ['listWidgets', 'get', '/widgets'],
    ]);
    expect(model.basePath).toBe('/api/v2');
    expect(model.extensions).toEqual({ 'x-paykit-rules': { retry: { description: 'resend later' } } });
  });

  it('merges path-level parameters under the operation, the operation winning (header names in any case)', () => {
    const get = model.operation('getWidget');
    expect(get.parameters.map((p) => [p.in, p.name, p.required])).toEqual([
      ['path', 'widgetId', true],
      ['header', 'x-trace', true],
    ]);
    expect(model.deref(get.parameters[0]!.schema)).toEqual({ type: 'string', maxLength: 255 });
    expect(model.nodeAt(get.parameters[0]!.schemaPointer!)).toEqual({ type: 'string', maxLength: 255 });
    expect(model.nodeAt(get.parameters[1]!.schemaPointer!)).toEqual({ type: 'string', maxLength: 8 });
  });

  it('resolves a schema of another file, with its recursion and a $ref with a sibling description', () => {
    const [media] = model.operation('getWidget').responses[0]!.content;
    expect(media!.examples).toEqual([{ name: 'small', value: { id: 'w1' } }]);
    const widget = model.deref(media!.schema)!;
    expect(widget.required).toEqual(['id']);
    const properties = widget.properties as Record<string, unknown>;
    expect(model.deref(properties.parent)).toBe(widget);
    expect(model.deref(properties.kind)).toEqual({ type: 'string', enum: ['small', 'large'], description: 'what the widget is, here' });
    expect(model.inline(media!.schema)).toMatchObject({ properties: { parent: { $ref: expect.stringMatching(/Widget$/) }, kind: { enum: ['small', 'large'] } } });
  });

  it('reads bodies, answers, headers, security and the operation extensions', () => {
    const put = model.operation('replaceWidget');
    expect(put.requestBody?.required).toBe(true);
    expect(put.requestBody?.content.map((c) => [c.mediaType, c.schemaPointer, c.examples])).toEqual([
      ['application/json', '#/paths/~1widgets~1{widgetId}/put/requestBody/content/application~1json/schema', []],
      ['text/plain', undefined, [{ name: 'example', value: 'w1' }]],
    ]);
    expect(put.security).toEqual(['apiKey']);
    expect(model.operation('getWidget').responses).toMatchObject([
      { status: '200', headers: { ETag: { required: true, schema: { type: 'string' }, schemaPointer: '#/paths/~1widgets~1{widgetId}/get/responses/200/headers/ETag/schema' } } },
    ]);
    const list = model.operation('listWidgets');
    expect(list.security).toEqual([]);
    expect(list.extensions).toEqual({ 'x-paykit-page-size': 20 });
    expect(model.webhooks.map((w) => [w.operationId, w.path])).toEqual([['POST widgetChanged', 'widgetChanged']]);
    expect(() => model.operation('nope')).toThrow('no operation nope; the contract has getWidget, replaceWidget, listWidgets');
  });
});

describe('openApiModel', () => {
  it('refuses an operation of paths without an operationId, naming it', () => {
    expect(() => openApiModel({ paths: { '/a': { delete: { responses: {} } } } })).toThrow('DELETE /a has no operationId');
  });

  it('reads a path item that is a $ref and answers that are $refs, giving their pointers where they are', () => {
    const model = openApiModel({
      paths: { '/a': { $ref: '#/components/pathItems/A' } },
      components: {
        pathItems: { A: { patch: { operationId: 'updateA', responses: { '404': { $ref: '#/components/responses/NotFound' } } } } },
        responses: { NotFound: { description: 'none', content: { 'application/problem+json': { schema: { type: 'object' } } } } },
      },
    });
    const [operation] = model.operations;
    expect(operation!.pointer).toBe('#/components/pathItems/A/patch');
    expect(operation!.responses[0]!.content[0]!.schemaPointer).toBe('#/components/responses/NotFound/content/application~1problem+json/schema');
  });
});

// Bundles each real contract with Redocly in process (3 s at a load average of 20 on this 2-core machine).
describe('readOpenApiContract on the real contracts', { timeout: 30_000 }, () => {
  it.each([
    { contract: paymentsContract, operations: 64, some: ['createTransaction', 'listMandateAgreements'], rules: 'x-paykit-rules' },
    { contract: fileExchangeContract, operations: 4, some: ['uploadFile', 'listFilesForDownload', 'downloadFile', 'deleteFile'], rules: 'x-paykit-rules' },
  ])('$contract.name: every operation, every parameter schema and body schema resolves', async ({ contract, operations, some, rules }) => {
    const model = await readOpenApiContract(contract.name);
    expect(model.operations).toHaveLength(operations);
    for (const id of some) expect(model.operation(id).operationId).toBe(id);
    expect(Object.keys(model.extensions)).toContain(rules);
    for (const operation of [...model.operations, ...model.webhooks]) {
      expect(HTTP_METHODS).toContain(operation.method);
      for (const parameter of operation.parameters) expect(model.deref(parameter.schema), `${operation.operationId} ${parameter.name}`).toBeTypeOf('object');
      const media = [...(operation.requestBody?.content ?? []), ...operation.responses.flatMap((r) => r.content)];
      for (const { schema, schemaPointer } of media.filter((m) => m.schema)) {
        expect(model.nodeAt(schemaPointer!)).toBe(schema);
        expect(model.inline(schema)).toBeTypeOf('object');
      }
    }
  });
});
