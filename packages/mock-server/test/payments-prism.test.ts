// end-to-end: starts a real Prism process of its own, listening on every interface.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockSpecPath, startPrismMock } from '../src/index.js';
import { sharedPrism } from './support/mocks.js';

type Example = { value?: unknown; $ref?: string };
interface MockSpec {
  'x-paykit-mock-base-path': string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }> }>>;
  components: { examples?: Record<string, Example> };
}

/** The value of an example, following a local `#/components/examples/...` reference as the bundle leaves them. */
function exampleValue(spec: MockSpec, example: Example): unknown {
  if (!example.$ref) return example.value;
  const name = example.$ref.replace('#/components/examples/', '');
  return spec.components.examples?.[name]?.value;
}

describe('payments mock (real Prism on the bundled contract)', () => {
  // The run's Prism, started by startPrismMock in the global set-up.
  const mock = sharedPrism('payments');
  let spec: MockSpec;
  beforeAll(async () => {
    spec = JSON.parse(await readFile(mockSpecPath('payments'), 'utf8')) as MockSpec;
  });

  it('serves the contract under the base path of the spec server', () => {
    expect(spec['x-paykit-mock-base-path']).toBe('/rest/v1');
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest\/v1$/);
  });

  it('answers GET /transactions/{receiptNumber} with the first example of the contract', async () => {
    const response = await fetch(`${mock.url}/transactions/1`, {
      headers: { authorization: `Basic ${Buffer.from('somekey:').toString('base64')}`, accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    const examples = spec.paths['/rest/v1/transactions/{receiptNumber}']!.get!.responses['200']!.content![
      'application/json'
    ]!.examples!;
    const expected = exampleValue(spec, Object.values(examples)[0]!);
    expect(expected).toBeDefined();
    expect(await response.json()).toEqual(expected);
  });

  it('refuses a request without credentials, as the service does', async () => {
    const response = await fetch(`${mock.url}/transactions/1`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(401);
  });
});

// A Prism start of its own: about a second idle, several seconds on a loaded machine.
describe('payments mock listening on every interface', { timeout: 60_000 }, () => {
  it('hands out a loopback address a client can call, not 0.0.0.0', async () => {
    const mock = await startPrismMock({ contract: 'payments', host: '0.0.0.0', port: 0 });
    try {
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest\/v1$/);
      const response = await fetch(`${mock.url}/transactions/1`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(401);
    } finally {
      await mock.close();
    }
  });
});
