import { afterEach, describe, expect, it } from 'vitest';
import { errorMediaType } from '../src/client/response-body.js';
import { secretKeyOperations, type OperationSpec } from '../src/generated/operations.js';
import { errorBody, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, secretClient } from './support/fixtures.js';

// An error answer is read as the spec declares for its status, not as the call asked for its success: a CSV report's
// 404 is a JSON error body, and its messages must reach the PaymentsError.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the media type an error body is read as', () => {
  const declared = { '404': ['application/json'], '409': ['application/json', 'text/plain'], '4XX': ['application/problem+json'], default: ['text/plain'] };
  it.each([
    { case: 'the status declares one type: it wins over the Content-Type', status: 404, contentType: 'text/csv', expected: 'application/json' },
    { case: 'the status declares one type, the answer names none', status: 404, contentType: null, expected: 'application/json' },
    { case: 'the status declares several: the answer picks one of them', status: 409, contentType: 'text/plain; charset=utf-8', expected: 'text/plain' },
    { case: 'the status declares several: an answer of another type gets the first', status: 409, contentType: 'text/html', expected: 'application/json' },
    { case: 'a range covers the status', status: 422, contentType: 'text/html', expected: 'application/problem+json' },
    { case: 'default covers the rest', status: 503, contentType: 'application/json', expected: 'text/plain' },
  ])('$case', ({ status, contentType, expected }) => {
    expect(errorMediaType(declared, status, contentType)).toBe(expected);
  });

  it.each([
    { case: 'the Content-Type, normalised, when the spec declares nothing', contentType: 'Application/Problem+JSON; charset=utf-8', expected: 'application/problem+json' },
    { case: 'nothing when neither says anything', contentType: null, expected: undefined },
    { case: 'nothing for an empty Content-Type', contentType: '', expected: undefined },
  ])('$case', ({ contentType, expected }) => {
    expect(errorMediaType({}, 418, contentType)).toBe(expected);
  });
});

/** Every call the spec answers with something else than JSON on success: the reports, by each media type they offer. */
const nonJsonCalls = Object.entries(secretKeyOperations as Record<string, OperationSpec>).flatMap(([operationId, spec]) =>
  spec.accept.filter((mediaType) => !/json$/.test(mediaType)).map((accept) => ({ operationId, spec, accept })),
);

/** The error statuses the spec declares JSON for on that operation (the client does not resend them with retries off). */
const jsonErrorStatuses = (spec: OperationSpec) =>
  Object.entries(spec.errors ?? {})
    .filter(([status, mediaTypes]) => /^\d{3}$/.test(status) && mediaTypes[0] === 'application/json')
    .map(([status]) => Number(status));

function callOf(baseUrl: string, operationId: string, spec: OperationSpec, accept: string): Promise<unknown> {
  if (spec.body) throw new Error(`${operationId} takes a body: give the test a request for it`);
  const methods = (secretClient(baseUrl, { retry: { maxRetries: 0 } }) as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>)[spec.group]!;
  return methods[spec.name]!(...spec.pathParams.map(() => 'id-1'), { accept });
}

describe('error answers of operations whose success is not JSON', () => {
  it('the spec has such operations, and declares JSON error bodies for them', () => {
    expect(nonJsonCalls.length).toBeGreaterThan(0);
    for (const { spec } of nonJsonCalls) expect(jsonErrorStatuses(spec).length).toBeGreaterThan(0);
  });

  const rows = nonJsonCalls.flatMap(({ operationId, spec, accept }) =>
    jsonErrorStatuses(spec).flatMap((status) =>
      [{ 'Content-Type': accept }, {}].map((headers) => ({
        name: `${operationId} (${accept}) ${status} sent as ${headers['Content-Type'] ?? 'no Content-Type'}`,
        operationId,
        spec,
        accept,
        status,
        headers,
      })),
    ),
  );

  it.each(rows)('$name: the JSON body and its messages reach the error', async ({ operationId, spec, accept, status, headers }) => {
    const sent = errorBody(status, `${operationId} failed with ${status}`);
    server = await startLoopbackServer((_request, res) => {
      res.writeHead(status, headers).end(JSON.stringify(sent));
    });
    const error = await failure(callOf(server.url, operationId, spec, accept));
    expect(error.status).toBe(status);
    expect(error.body).toEqual(sent);
    expect(error.developerMessage).toBe(sent.developerMessage);
    expect(error.customerMessage).toBe(sent.customerMessage);
  });

  it('keeps the success of such a call as text', async () => {
    const [{ operationId, spec, accept }] = nonJsonCalls as [(typeof nonJsonCalls)[number]];
    server = await startLoopbackServer((_request, res) => {
      res.writeHead(200, { 'Content-Type': accept }).end('{"looks":"like json"}');
    });
    const result = (await callOf(server.url, operationId, spec, accept)) as { data: unknown };
    expect(result.data).toBe('{"looks":"like json"}');
  });
});

describe('error answers of a status the spec does not declare', () => {
  const undeclared = 418;
  const [{ operationId, spec, accept }] = nonJsonCalls as [(typeof nonJsonCalls)[number]];

  it('the status is not declared on the operation (the test is about that case)', () => {
    expect(spec.errors?.[String(undeclared)]).toBeUndefined();
    expect(spec.errors?.['4XX']).toBeUndefined();
    expect(spec.errors?.default).toBeUndefined();
  });

  it.each([
    { contentType: 'application/problem+json', expected: { title: 'teapot' } },
    { contentType: 'text/plain', expected: '{"title":"teapot"}' },
  ])('are read by their Content-Type ($contentType)', async ({ contentType, expected }) => {
    server = await startLoopbackServer((_request, res) => {
      res.writeHead(undeclared, { 'Content-Type': contentType }).end('{"title":"teapot"}');
    });
    const error = await failure(callOf(server.url, operationId, spec, accept));
    expect(error.body).toEqual(expected);
  });

  it.each([
    { body: '{"title":"teapot"}', expected: { title: 'teapot' } },
    { body: 'I am a teapot', expected: 'I am a teapot' },
  ])('are read as JSON when they parse and nothing names their type ($body)', async ({ body, expected }) => {
    server = await startLoopbackServer((_request, res) => {
      res.writeHead(undeclared).end(body);
    });
    const error = await failure(callOf(server.url, operationId, spec, accept));
    expect(error.body).toEqual(expected);
  });
});
