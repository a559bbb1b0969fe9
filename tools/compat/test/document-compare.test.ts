import { describe, expect, it } from 'vitest';
import { compareDocuments, type OpenApiDocument } from '../src/openapi/index.js';
import { outcomes } from './fixtures.js';

type Edit = (document: Record<string, any>) => void;

/** A small document with one path parameter, one header parameter, a request body, a response header and a webhook. */
function base(): Record<string, any> {
  const json = { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: 'v1' },
    servers: [{ url: 'https://api.example.test/rest/v1' }],
    security: [{ key: [] }],
    paths: {
      '/items/{itemId}': {
        put: {
          parameters: [
            { name: 'itemId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
          ],
          requestBody: { content: json },
          responses: { '200': { description: 'Saved.', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } }, content: json } },
        },
      },
    },
    webhooks: {},
    components: { securitySchemes: { key: { type: 'http', scheme: 'basic' }, other: { type: 'http', scheme: 'bearer' } } },
  };
}

const PUT = 'PUT /items/{itemId}';
const cases: { case: string; edit: Edit; expected: [rule: string, location: string][] }[] = [
  {
    case: 'a renamed path parameter changes nothing on the wire',
    edit: (d) => {
      d.paths['/items/{key}'] = d.paths['/items/{itemId}'];
      delete d.paths['/items/{itemId}'];
      d.paths['/items/{key}'].put.parameters[0].name = 'key';
    },
    expected: [],
  },
  { case: 'header names ignore case', edit: (d) => (d.paths['/items/{itemId}'].put.parameters[1].name = 'x-request-id'), expected: [] },
  {
    case: 'an optional request body made required',
    edit: (d) => (d.paths['/items/{itemId}'].put.requestBody.required = true),
    expected: [['new-required-request-field', `${PUT} request body`]],
  },
  {
    case: 'a new 2xx response is breaking: callers do not handle it',
    edit: (d) => (d.paths['/items/{itemId}'].put.responses['202'] = { description: 'Accepted.' }),
    expected: [['new-success-response', `${PUT} response 202`]],
  },
  {
    case: 'a new 5xx response is not on the list',
    edit: (d) => (d.paths['/items/{itemId}'].put.responses['503'] = { description: 'Unavailable.' }),
    expected: [['unclassified-change', `${PUT} response 503`]],
  },
  {
    case: 'a new request media type is a wider request',
    edit: (d) => (d.paths['/items/{itemId}'].put.requestBody.content = { ...d.paths['/items/{itemId}'].put.requestBody.content, 'application/xml': { schema: { type: 'string' } } }),
    expected: [['widened-request-type', `${PUT} request body application/xml`]],
  },
  {
    case: 'a renamed operationId renames a generated method',
    edit: (d) => (d.paths['/items/{itemId}'].put.operationId = 'storeItem'),
    expected: [['renamed-operation-id', `${PUT} operationId`]],
  },
  {
    case: 'a success response that stops offering JSON',
    edit: (d) => {
      const response = d.paths['/items/{itemId}'].put.responses['200'];
      response.content = { 'application/xml': response.content['application/json'] };
    },
    expected: [
      ['removed-success-response', `${PUT} response 200 application/json`],
      ['unclassified-change', `${PUT} response 200 application/xml`],
    ],
  },
  {
    case: 'a removed response header',
    edit: (d) => delete d.paths['/items/{itemId}'].put.responses['200'].headers['X-Rate-Limit'],
    expected: [['removed-response-property', `${PUT} response 200 header x-rate-limit`]],
  },
  {
    case: 'a new webhook is a new resource',
    edit: (d) => (d.webhooks.itemChanged = { post: { responses: { '200': { description: 'Received.' } } } }),
    expected: [['new-resource', 'webhook itemChanged']],
  },
  {
    case: 'another scheme in the root security requirement',
    edit: (d) => (d.security = [{ other: [] }]),
    expected: [['changed-security', `${PUT} security`]],
  },
  {
    case: 'the same scheme name with another definition',
    edit: (d) => (d.components.securitySchemes.key = { type: 'apiKey', in: 'header', name: 'X-Key' }),
    expected: [['changed-security', `${PUT} security`]],
  },
  {
    case: 'a reworded operation summary and a scheme description',
    edit: (d) => {
      d.paths['/items/{itemId}'].put.summary = 'Save an item';
      d.components.securitySchemes.key.description = 'The secret key.';
    },
    expected: [['reworded-documentation', `${PUT} summary`]],
  },
  {
    // What the contract marks secret is for our tools: a client sends the same requests.
    case: 'x-paykit-sensitive marks on a security scheme, a parameter, a request property and a whole answer body',
    edit: (d) => {
      d.components.securitySchemes.key['x-paykit-sensitive'] = 'secret';
      const put = d.paths['/items/{itemId}'].put;
      put.parameters[1]['x-paykit-sensitive'] = 'secret';
      put.requestBody.content['application/json'].schema.properties.id['x-paykit-sensitive'] = 'card-number';
      put.responses['200'].content = { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } }, 'x-paykit-sensitive': 'secret' } } };
    },
    expected: [],
  },
];

describe('operations, parameters, responses and security', () => {
  it.each(cases)('$case', ({ edit, expected }) => {
    const after = base();
    edit(after);
    const found = outcomes(compareDocuments(base() as OpenApiDocument, after as OpenApiDocument));
    expect(found.map((o) => [o.rule, o.location])).toEqual(expected);
  });
});
