import type { OpenApiDocument } from '@paykit/contracts';
import { describe, expect, it } from 'vitest';
import { buildValidationData } from '../src/generators/payments-validation.js';

/** A one-operation document whose JSON request body is `{ amount: <schema> }`. */
function withAmount(schema: Record<string, unknown>): OpenApiDocument {
  const body = { type: 'object', properties: { amount: schema } };
  const operation = { operationId: 'pay', requestBody: { content: { 'application/json': { schema: body } } }, responses: {} };
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/pay': { post: operation } } } as unknown as OpenApiDocument;
}

describe('x-paykit-decimal-places in request schemas', () => {
  it('becomes the dp key of the number node the request checks read', () => {
    const { schemas } = buildValidationData(withAmount({ type: 'number', 'x-paykit-decimal-places': 2 }), new Set(['pay']));
    expect(schemas).toContainEqual({ t: 'number', dp: 2 });
  });

  it.each([
    { case: 'on a string schema', schema: { type: 'string', 'x-paykit-decimal-places': 2 }, message: /number schemas only/ },
    { case: 'with a fraction', schema: { type: 'number', 'x-paykit-decimal-places': 1.5 }, message: /whole number/ },
    { case: 'as a string', schema: { type: 'number', 'x-paykit-decimal-places': '2' }, message: /whole number/ },
  ])('stops generation $case', ({ schema, message }) => {
    expect(() => buildValidationData(withAmount(schema), new Set(['pay']))).toThrow(message);
  });
});
