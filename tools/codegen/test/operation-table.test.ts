import { bundleOpenApi, idempotencyKeyExtension, nodeAt, openApiModel, OpenApiReferenceError, paymentsContract, type OpenApiDocument } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { buildOperationTable, operationTableGenerator } from '../src/generators/operation-table.js';

const ok = { description: 'ok' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A small contract with what the sandbox's reader had to work out at run time: refs, merges, marks, every method. */
const document = {
  openapi: '3.1.0',
  servers: [{ url: 'https://{host}/api/v2', variables: { host: { default: 'example.test' } } }],
  security: [{ secretKey: [] }],
  paths: {
    '/widgets/{widgetId}': {
      parameters: [
        { $ref: '#/components/parameters/WidgetId' },
        { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
      ],
      get: {
        operationId: 'getWidget',
        parameters: [{ name: 'x-trace', in: 'header', required: true, schema: { type: 'string', maxLength: 8 } }],
        responses: { '200': { ...ok, headers: { ETag: { schema: { type: 'string' } } }, ...json({ $ref: '#/components/schemas/%7BWidget%7D' }) }, '404': { $ref: '#/components/responses/Problem' } },
      },
      post: {
        operationId: 'changeWidget',
        security: [{ publishableKey: [] }],
        parameters: [{ $ref: '#/components/parameters/ResendKey' }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                allOf: [{ $ref: '#/components/schemas/WidgetChange' }, { type: 'object', properties: { size: { type: 'integer' }, colour: { type: 'string', 'x-paykit-open-enum': ['RED'] } } }],
              },
            },
            'text/plain': {},
          },
        },
        responses: { '204': ok, '404': { $ref: '#/components/responses/Problem' } },
      },
      head: { operationId: 'checkWidget', responses: { '200': ok } },
      options: { operationId: 'describeWidget', responses: { '204': ok } },
      trace: { operationId: 'traceWidget', responses: { '200': ok } },
    },
    '/widgets': {
      put: {
        operationId: 'replaceWidgets',
        // Named like an idempotency key, but not marked: not one.
        parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }, { name: 'limit', in: 'query', schema: { $ref: '#/components/schemas/Limit' } }],
        responses: { '204': ok },
      },
    },
  },
  webhooks: {
    'widget.made': { post: { requestBody: json({ $ref: '#/components/schemas/WidgetEvent' }), responses: { '200': ok } } },
    'widget.gone': { post: { responses: { '200': ok } } },
  },
  components: {
    parameters: {
      WidgetId: { name: 'widgetId', in: 'path', schema: { $ref: '#/components/schemas/Id' } },
      ResendKey: { name: 'X-Resend-Key', in: 'header', [idempotencyKeyExtension]: true, schema: { type: 'string', maxLength: 60 } },
    },
    responses: { Problem: { description: 'problem', ...json({ $ref: '#/components/schemas/Problem' }) } },
    schemas: {
      Id: { $ref: '#/components/schemas/Identifier' },
      Identifier: { type: 'string', maxLength: 255 },
      Limit: { type: 'integer' },
      '{Widget}': { type: 'object' },
      Problem: { type: 'object' },
      WidgetChange: { type: 'object', properties: { kind: { $ref: '#/components/schemas/WidgetKind' }, name: { type: 'string' } } },
      WidgetKind: { type: 'string', 'x-paykit-open-enum': ['SMALL', 'LARGE'] },
      WidgetEvent: { type: 'object' },
    },
  },
} as unknown as OpenApiDocument;

describe('the operation table', () => {
  const table = buildOperationTable(openApiModel(document));

  it('has every operation of every method, in the contract\'s order, under the base path', () => {
    expect(table.basePath).toBe('/api/v2');
    expect(Object.entries(table.operations).map(([id, o]) => [id, o.method, o.path])).toEqual([
      ['getWidget', 'GET', '/widgets/{widgetId}'],
      ['changeWidget', 'POST', '/widgets/{widgetId}'],
      ['describeWidget', 'OPTIONS', '/widgets/{widgetId}'],
      ['checkWidget', 'HEAD', '/widgets/{widgetId}'],
      ['traceWidget', 'TRACE', '/widgets/{widgetId}'],
      ['replaceWidgets', 'PUT', '/widgets'],
    ]);
  });

  it('finds the idempotency key by its mark, whatever its name, and nothing by a name alone', () => {
    expect(table.idempotencyHeader).toBe('X-Resend-Key');
    expect(table.operations.changeWidget!.idempotencyHeader).toBe('X-Resend-Key');
    expect(table.operations.replaceWidgets!.idempotencyHeader).toBeUndefined();
  });

  it('merges the path item\'s parameters under the operation\'s, each schema where its $refs end', () => {
    expect(table.operations.getWidget!.parameters).toEqual([
      // A path parameter is required whether or not the contract says so.
      { name: 'widgetId', in: 'path', required: true, schema: '#/components/schemas/Identifier', type: 'string' },
      { name: 'x-trace', in: 'header', required: true, schema: '#/paths/~1widgets~1{widgetId}/get/parameters/0/schema', type: 'string' },
    ]);
    expect(table.operations.replaceWidgets!.parameters[1]).toEqual({ name: 'limit', in: 'query', required: false, schema: '#/components/schemas/Limit', type: 'integer' });
  });

  it('gives each body and answer by media type and status, a percent-encoded $ref written as pointerTo writes it', () => {
    expect(table.operations.getWidget!.responses).toEqual({
      '200': { headers: ['ETag'], content: { 'application/json': '#/components/schemas/{Widget}' } },
      '404': { headers: [], content: { 'application/json': '#/components/schemas/Problem' } },
    });
    expect(table.operations.changeWidget!.requestBody).toEqual({
      required: true,
      content: { 'application/json': '#/paths/~1widgets~1{widgetId}/post/requestBody/content/application~1json/schema', 'text/plain': null },
    });
    expect(table.operations.changeWidget!.responses['204']).toEqual({ headers: [], content: {} });
    expect(table.operations.changeWidget!.security).toEqual(['publishableKey']);
    expect(table.operations.getWidget!.security).toEqual(['secretKey']);
    for (const operation of Object.values(table.operations)) {
      const pointers = [
        ...operation.parameters.map((p) => p.schema),
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((r) => Object.values(r.content)),
      ].filter((pointer): pointer is string => typeof pointer === 'string');
      for (const pointer of pointers) expect(nodeAt(document, pointer), pointer).toMatchObject({ type: expect.any(String) });
    }
  });

  it('lists the JSON body\'s open-list fields, through $refs and allOf parts, and none where there are none', () => {
    expect(table.operations.changeWidget!.openValues).toEqual({ kind: ['SMALL', 'LARGE'], colour: ['RED'] });
    expect(Object.values(table.operations).filter((o) => o.openValues).length).toBe(1);
  });

  it('gives each webhook\'s body schema by its event, null where it has none', () => {
    expect(table.webhooks).toEqual({ 'widget.made': '#/components/schemas/WidgetEvent', 'widget.gone': null });
  });

  it('refuses a reference cycle instead of following it for ever', () => {
    const cyclic = structuredClone(document) as { components: { schemas: Record<string, unknown> } };
    cyclic.components.schemas.Identifier = { $ref: '#/components/schemas/Id' };
    expect(() => buildOperationTable(openApiModel(cyclic as unknown as OpenApiDocument))).toThrow(OpenApiReferenceError);
  });

  it('is printed with each distinct answer once, and its types declared or imported', async () => {
    const [file] = await operationTableGenerator('src/generated/operations.ts', 'widgetOperations')({ document, specPath: 'widgets.yaml' });
    expect(file!.path).toBe('src/generated/operations.ts');
    expect(file!.content).toMatch(/^\/\/ This file is generated by @paykit\/codegen from widgets\.yaml\./);
    expect(file!.content).toContain('export interface OperationTable {');
    // Eight answers, three distinct: the 200 with its ETag, the two 404s, the five without a body.
    expect(file!.content.match(/^const answer\d+: OperationResponse = /gm)).toHaveLength(3);
    expect(file!.content).toContain('export const widgetOperations: OperationTable = {');
    const [other] = await operationTableGenerator('src/generated/more/operations.ts', 'more', '../operations.js')({ document, specPath: 'widgets.yaml' });
    expect(other!.content).toContain("import type { OperationResponse, OperationTable } from '../operations.js';");
    expect(other!.content).not.toContain('export interface OperationTable');
  });

  // Bundles the real contract with Redocly (a second or two; 30 s bounds a loaded 2-core machine).
  it('of the payments contract: every POST takes the idempotency key, and every pointer finds a schema', { timeout: 30_000 }, async () => {
    const payments = await bundleOpenApi(paymentsContract.root);
    const real = buildOperationTable(openApiModel(payments));
    const posts = Object.values(real.operations).filter((o) => o.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    expect(real.idempotencyHeader).toBeDefined();
    for (const post of posts) expect(post.idempotencyHeader).toBe(real.idempotencyHeader);
    const pointers = Object.values(real.operations).flatMap((o) => [
      ...o.parameters.map((p) => p.schema),
      ...Object.values(o.requestBody?.content ?? {}),
      ...Object.values(o.responses).flatMap((r) => Object.values(r.content)),
    ]);
    expect(pointers.length).toBeGreaterThan(0);
    for (const pointer of pointers.filter((p): p is string => typeof p === 'string')) expect(nodeAt(payments, pointer), pointer).toBeTypeOf('object');
  });
});
