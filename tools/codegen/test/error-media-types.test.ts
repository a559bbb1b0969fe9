import { describe, expect, it } from 'vitest';
import { buildOperationTables, paymentsOperationsGenerator } from '../src/generators/payments-operations.js';

const errorSchema = { type: 'object' };
const document = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  components: {
    securitySchemes: { secretKey: { type: 'http', scheme: 'basic' } },
    responses: { NotFound: { description: 'gone', content: { 'application/json': { schema: errorSchema } } } },
  },
  security: [{ secretKey: [] }],
  paths: {
    '/reports/{id}': {
      get: {
        operationId: 'getReport',
        tags: ['Reports'],
        responses: {
          '200': { description: 'the report', content: { 'text/csv': { schema: { type: 'string' } } } },
          '301': { description: 'moved, no body' },
          '404': { $ref: '#/components/responses/NotFound' },
          '409': { description: 'two kinds', content: { 'application/json': { schema: errorSchema }, 'text/plain': { schema: { type: 'string' } } } },
          '5XX': { description: 'a range', content: { 'application/problem+json': { schema: errorSchema } } },
          default: { description: 'the rest', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    '/reports/{id}/copy': {
      get: {
        operationId: 'getReportCopy',
        tags: ['Reports'],
        responses: { '200': { description: 'the copy', content: { 'text/csv': {} } }, '404': { $ref: '#/components/responses/NotFound' } },
      },
    },
    '/reports/{id}/summary': {
      get: {
        operationId: 'getReportSummary',
        tags: ['Reports'],
        responses: { '200': { description: 'the summary', content: { 'text/csv': {} } }, '404': { $ref: '#/components/responses/NotFound' } },
      },
    },
    '/ping': { get: { operationId: 'getPing', tags: ['Ping'], responses: { '204': { description: 'up' } } } },
  },
};

describe('error media types in the operation table', () => {
  const { tables } = buildOperationTables(document as never);

  it('lists, per status as the spec keys it, the media types of every answer that is not a success and has a body', () => {
    expect(tables.secretKey!.getReport!.errors).toEqual({
      '404': ['application/json'],
      '409': ['application/json', 'text/plain'],
      '5XX': ['application/problem+json'],
      default: ['text/plain'],
    });
    expect(tables.secretKey!.getReport!.accept).toEqual(['text/csv']);
  });

  it('leaves the field out when no error answer has a body', () => {
    expect(tables.secretKey!.getPing!.errors).toBeUndefined();
  });
});

describe('the generated operation module', () => {
  it('writes each distinct set of error media types once, and the entries name it', async () => {
    const [file] = await paymentsOperationsGenerator({ document: document as never, specPath: 'fixture.yaml' });
    const content = file!.content;
    const declared = [...content.matchAll(/^const (errorMediaTypes\d+) = /gm)].map((m) => m[1]);
    expect(declared).toHaveLength(2);
    const named = [...content.matchAll(/errors: (errorMediaTypes\d+),/g)].map((m) => m[1]);
    expect(named).toHaveLength(3);
    expect(new Set(named)).toEqual(new Set(declared));
  });
});
