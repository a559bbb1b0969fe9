import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the mock specs' build step, without type declarations.
import { serialiseXmlExamples } from '../scripts/xml-examples.mjs';

type Node = Record<string, any>;

/** Two operations (a GET and a PATCH) sharing one answer by `$ref`, its XML example an object, its JSON one too. */
function contract(): Node {
  return {
    openapi: '3.1.0',
    paths: {
      '/files': {
        get: { operationId: 'listFiles', responses: { '200': { $ref: '#/components/responses/Files' } } },
        patch: { operationId: 'changeFiles', responses: { '200': { $ref: '#/components/responses/Files' } } },
      },
    },
    components: {
      responses: {
        Files: {
          description: 'the files',
          content: {
            'application/xml': { schema: { $ref: '#/components/schemas/Files' }, examples: { two: { $ref: '#/components/examples/Two' } } },
            'application/json': { schema: { $ref: '#/components/schemas/Files' }, examples: { two: { $ref: '#/components/examples/Two' } } },
          },
        },
      },
      examples: { Two: { summary: 'two files', value: { file: ['a&b.txt', 'c.txt'] } } },
      schemas: {
        Files: {
          type: 'object',
          xml: { name: 'files', namespace: 'urn:files' },
          properties: { file: { type: 'array', items: { type: 'string', xml: { name: 'name' } } } },
        },
      },
    },
  };
}

describe('serialiseXmlExamples', () => {
  it('writes an object example of an XML answer as the XML its schema describes, once for an answer two operations share', () => {
    const document = contract();
    serialiseXmlExamples(document);
    const files = document.components.responses.Files.content;
    expect(files['application/xml'].examples.two).toEqual({
      summary: 'two files',
      value: '<?xml version="1.0" encoding="UTF-8"?><files xmlns="urn:files"><name>a&amp;b.txt</name><name>c.txt</name></files>',
    });
    // The JSON answer and the shared example component keep the object.
    expect(files['application/json'].examples.two).toEqual({ $ref: '#/components/examples/Two' });
    expect(document.components.examples.Two.value).toEqual({ file: ['a&b.txt', 'c.txt'] });
  });
});
