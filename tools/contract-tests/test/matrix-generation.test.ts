import type { OpenApiDocument } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { exampleRequests, schemaValidString } from '../src/example-request.js';
import { fileExchangeInvocations } from '../src/file-exchange-invoker.js';
import { matrixCases } from '../src/matrix-cases.js';
import { listOperations, loadContract } from '../src/openapi-document.js';
import { clientMethodOf, createPaymentsClients, invokePaymentsOperation } from '../src/payments-invoker.js';

/** The payments spec with one operation more, as a later version of the spec would have it. */
function withNewOperation(): OpenApiDocument {
  const document = structuredClone(loadContract('payments'));
  document.paths!['/widgets/{widgetId}'] = {
    post: {
      operationId: 'renameWidget',
      tags: ['Facility'],
      parameters: [{ name: 'widgetId', in: 'path', required: true, schema: { $ref: '#/components/schemas/Identifier' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' }, examples: { rename: { value: { name: 'New' } } } } } },
      responses: {
        '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, examples: { renamed: { value: { name: 'New' } } } } } },
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  };
  return document;
}

describe('the matrix comes from the spec, not from a list in the tests', () => {
  it('a new operation in the spec becomes new matrix rows, with schema-valid path values', () => {
    const before = matrixCases(loadContract('payments'), { includeErrors: true });
    const after = matrixCases(withNewOperation(), { includeErrors: true });
    const added = after.filter((c) => c.operation.operationId === 'renameWidget');
    expect(after.length - before.length).toBe(added.length);
    expect(added.map((c) => c.name)).toEqual(['renameWidget [rename] -> 200 application/json (renamed)', expect.stringMatching(/^renameWidget \[rename\] -> 404 application\/json/)]);
    expect(added[0]).toMatchObject({ prefer: 'code=200, example=renamed', request: { body: { name: 'New' }, path: { widgetId: 'widgetId-1' } } });
  });

  it('an operation our client lacks fails loudly instead of being skipped', async () => {
    expect(clientMethodOf('renameWidget')).toBeUndefined();
    const operation = listOperations(withNewOperation()).find((o) => o.operationId === 'renameWidget')!;
    const request = exampleRequests(withNewOperation(), operation)[0]!;
    await expect(invokePaymentsOperation(createPaymentsClients('http://127.0.0.1:9/rest/v1'), 'renameWidget', request)).rejects.toThrow(/no method for renameWidget/);
  });

  it('every operation of the payments spec has a method on our client, with the key type its security names', () => {
    for (const operation of listOperations(loadContract('payments'))) {
      const method = clientMethodOf(operation.operationId);
      expect(method, operation.operationId).toBeDefined();
      expect(method?.key === 'publishable' ? 'publishableKey' : 'secretKey').toBe(operation.security[0]);
    }
  });

  it('every operation of the file exchange REST spec is mapped to a method of our client', () => {
    expect(Object.keys(fileExchangeInvocations).sort()).toEqual(listOperations(loadContract('file-exchange')).map((o) => o.operationId).sort());
  });

  it.each([
    { schema: { type: 'string', minLength: 1, maxLength: 255 }, hint: 'customerId', value: 'customerId-1' },
    { schema: { type: 'string', enum: ['PENDING', 'REGISTERED'] }, hint: 'status', value: 'PENDING' },
    { schema: { type: 'string', pattern: '^[0-9]{6}$' }, hint: 'bin', value: '111111' },
    { schema: { type: 'string', format: 'date' }, hint: 'settlementDate', value: '2026-01-15' },
    { schema: { type: 'integer', minimum: 3 }, hint: 'page', value: '3' },
  ])('a parameter without example gets a schema-valid value: $hint', ({ schema, hint, value }) => {
    expect(schemaValidString(loadContract('payments'), schema, hint)).toBe(value);
  });
});
