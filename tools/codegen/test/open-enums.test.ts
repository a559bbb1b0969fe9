import { describe, expect, it } from 'vitest';
import { typesGenerator } from '../src/generators/types.js';

async function typeOf(schema: Record<string, unknown>): Promise<string> {
  const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { Subject: schema } } };
  const [file] = await typesGenerator({ document, specPath: 'fixture.yaml' });
  const line = file!.content.split('\n').find((l) => l.includes('Subject:'));
  return line!.replace(/^\s*Subject:\s*/, '').replace(/;$/, '');
}

describe('enum generation', () => {
  it.each([
    {
      case: 'an open string offers its known values and accepts values added later',
      schema: { type: 'string', 'x-paykit-open-enum': ['CREDIT', 'DEBIT'] },
      expected: '"CREDIT" | "DEBIT" | (string & {})',
    },
    {
      case: 'an unmarked enum stays closed',
      schema: { type: 'string', enum: ['STATIC', 'SINGLE'] },
      expected: '"STATIC" | "SINGLE"',
    },
  ])('$case', async ({ schema, expected }) => {
    expect(await typeOf(schema)).toBe(expected);
  });
});
