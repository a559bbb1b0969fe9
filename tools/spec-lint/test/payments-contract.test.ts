// The payments contract's house conventions that the linter cannot see across files: every operation, its id, tag and
// key type, its answers and examples. The operations are the contract's own (read by @paykit/contracts): the tests
// hold each one to the conventions rather than to a second list of them. That none is removed without a new version
// is the compatibility gate's check (tools/compat).
import { paymentsContract, readOpenApiContract, type OpenApiContractModel, type OpenApiOperation } from '@paykit/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { lint } from './redocly-cli.js';

/**
 * The operations that take the publishable key: the reference's resource summary marks a business's accepted cards
 * and card surcharges «(publishable key)», and its entry for POST /single-use-tokens says «Key: publishable».
 */
const publishableKeyOperations = ['createSingleUseToken', 'listBusinessAcceptedCards', 'listBusinessCardSurcharges'];

/** The assumption that marks an operation whose key type the reference does not give (the secret key is used). */
const assumedKeyType = 'operation-key-type';

/** The error responses every operation gives, and those that depend on a path parameter or a request body. */
const generalErrors = ['400', '401', '403', '406', '429', '500', '502', '503', '504'];

type Node = Record<string, any>;
type Operation = OpenApiOperation & { operation: Node };

let spec: Node;
let model: OpenApiContractModel;
let operations: Operation[];

const deref = (value: unknown) => model.deref(value) as Node | undefined;
const parametersOf = (o: Operation): Node[] => o.parameters.map((p) => p.node);

const label = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;
const isErrorStatus = (code: string) => /^[45]/.test(code) || code === 'default';

// Bundles the real contract with Redocly in process.
beforeAll(async () => {
  model = await readOpenApiContract(paymentsContract);
  spec = model.document;
  operations = model.operations;
}, 30_000);

describe('payments contract inventory', () => {
  it('reads the operations of the contract', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it('gives every operation a unique operationId and a single tag that is declared and described', () => {
    const declaredTags = new Map((spec.tags as Node[]).map((t) => [t.name, t.description]));
    for (const [tag, description] of declaredTags) expect(description, `tag ${tag}`).toBeTruthy();
    for (const o of operations) {
      expect(o.operation.tags, label(o)).toHaveLength(1);
      expect(declaredTags.has(o.operation.tags[0]), `${label(o)}: tag ${o.operation.tags[0]} declared`).toBe(true);
    }
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('requires exactly one key per operation: publishable for the three browser resources, secret otherwise', () => {
    const publishable = operations.filter((o) => o.security.includes('publishableKey')).map((o) => o.operationId);
    expect(publishable.sort()).toEqual([...publishableKeyOperations].sort());
    for (const o of operations) {
      const expected = publishableKeyOperations.includes(o.operationId) ? 'publishableKey' : 'secretKey';
      expect(o.operation.security, label(o)).toEqual([{ [expected]: [] }]);
    }
  });

  it('marks and says where the reference gives no key type, and uses the secret key there', () => {
    const sentence = 'does not state which key type this resource takes; this contract uses the secret key';
    const marked = operations.filter((o) => [o.operation['x-paykit-assumption']].flat().includes(assumedKeyType));
    expect(marked.length).toBeGreaterThan(0);
    for (const o of operations) {
      const says = String(o.operation.description).replace(/\s+/g, ' ').includes(sentence);
      expect(says, `${label(o)} says the key type is assumed exactly when it is marked ${assumedKeyType}`).toBe(marked.includes(o));
    }
    for (const o of marked) expect(o.security, label(o)).toEqual(['secretKey']);
  });

  it('has a summary and a description on every operation', () => {
    for (const o of operations) {
      expect(o.operation.summary, label(o)).toBeTruthy();
      expect(o.operation.description, label(o)).toBeTruthy();
    }
  });

  it('declares every path parameter, each limited to 255 characters', () => {
    for (const o of operations) {
      const names = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = parametersOf(o).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), label(o)).toEqual(names.sort());
      for (const p of declared) expect(deref(p.schema)?.maxLength, `${label(o)} ${p.name}`).toBe(255);
    }
  });

  it('lets every POST take the idempotency key (at most 60 printable ASCII characters)', () => {
    const key = model.idempotencyKey;
    expect(key, 'the contract marks its idempotency key').toBeDefined();
    const posts = operations.filter((o) => o.method === 'post');
    expect(posts.length).toBeGreaterThan(0);
    for (const o of posts) expect(o.idempotencyHeader, label(o)).toBe(key!.header);
    expect(key!.schema.maxLength).toBe(60);
    const pattern = new RegExp(String(key!.schema.pattern));
    expect(pattern.test('6f1c1f0e-2b7d-4a43-9c55-0d9b1f3a7e21')).toBe(true);
    expect(pattern.test('x'.repeat(61))).toBe(false);
    expect(pattern.test('caf\u00e9')).toBe(false);
  });

  it('declares the Location header on every 201 response', () => {
    const created = operations.filter((o) => o.operation.responses['201']);
    expect(created.map(label)).toContain('POST /transactions');
    expect(created.map(label)).toContain('POST /aliases');
    for (const o of created) {
      const response = deref(o.operation.responses['201']);
      expect(deref(response?.headers?.Location), label(o)).toMatchObject({ schema: { type: 'string' } });
    }
  });

  it('describes every error response with the Error body and an example', () => {
    for (const o of operations) {
      for (const [code, raw] of Object.entries(o.operation.responses as Node)) {
        if (!isErrorStatus(code)) continue;
        const media = deref(raw)?.content?.['application/json'];
        expect(media?.schema, `${label(o)} ${code}`).toEqual({ $ref: '#/components/schemas/Error' });
        expect(Object.keys(media?.examples ?? {}).length, `${label(o)} ${code} example`).toBeGreaterThan(0);
      }
    }
  });

  it('gives every operation the general error responses that apply to it', () => {
    for (const o of operations) {
      const codes = Object.keys(o.operation.responses);
      const expected = [...generalErrors];
      if (o.path.includes('{')) expected.push('404');
      if (o.operation.requestBody) expected.push('415', '422');
      for (const code of expected) expect(codes, label(o)).toContain(code);
    }
  });

  it('has an example for every request body and every success body', () => {
    for (const o of operations) {
      const bodies: [string, Node][] = [];
      const request = deref(o.operation.requestBody);
      for (const [type, media] of Object.entries(request?.content ?? {})) bodies.push([`request ${type}`, media as Node]);
      for (const [code, raw] of Object.entries(o.operation.responses as Node)) {
        if (!code.startsWith('2')) continue;
        for (const [type, media] of Object.entries(deref(raw)?.content ?? {})) bodies.push([`${code} ${type}`, media as Node]);
      }
      for (const [where, media] of bodies) {
        expect(Object.keys(media.examples ?? {}).length, `${label(o)} ${where}`).toBeGreaterThan(0);
      }
    }
  });

  it('answers POST /transactions with 201 or 202 and serves GET /transactions as JSON and CSV', () => {
    const create = (spec.paths as Node)['/transactions'].post.responses;
    expect(Object.keys(create)).toEqual(expect.arrayContaining(['201', '202']));
    const list = deref((spec.paths as Node)['/transactions'].get.responses['200']);
    expect(Object.keys(list?.content ?? {}).sort()).toEqual(['application/json', 'text/csv']);
  });

  it('lists the status codes the reference gives for the token, 3D Secure, alias and customer endpoints', () => {
    const expectations: [string, string, string[]][] = [
      ['post', '/single-use-tokens', ['200', '401', '422', '429']],
      ['post', '/single-use-tokens/{singleUseTokenId}/three-ds2-authentication', ['200', '401', '404', '422', '429', '503']],
      ['post', '/aliases', ['201', '422']],
      ['post', '/customers/{customerId}/aliases', ['201', '422']],
      ['patch', '/aliases/{id}', ['204', '404', '422']],
      ['get', '/aliases/{id}', ['200', '404']],
      ['get', '/customers/{customerId}/aliases', ['200', '404']],
      ['post', '/customers', ['201', '409']],
      ['get', '/methods', ['200', '401', '403']],
    ];
    for (const [method, path, codes] of expectations) {
      const responses = (spec.paths as Node)[path][method].responses;
      expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(codes));
    }
  });

  it('declares both alias webhooks with the signature header, the envelope and a 200 answer', () => {
    const webhooks = spec.webhooks as Node;
    expect(Object.keys(webhooks).sort()).toEqual(['alias.payment.received', 'alias.registered']);
    const payloads: Record<string, string> = {
      'alias.registered': '#/components/schemas/Alias',
      'alias.payment.received': '#/components/schemas/Transaction',
    };
    for (const [event, data] of Object.entries(payloads)) {
      const post = webhooks[event].post;
      const signature = (post.parameters as Node[]).map((p) => deref(p) ?? {}).find((p) => p.name === 'X-Webhook-Signature');
      expect(signature?.in, event).toBe('header');
      const pattern = new RegExp(deref(signature?.schema)?.pattern);
      expect(pattern.test('t=1772410530000,v1=0a1b2c3d')).toBe(true);
      expect(pattern.test('v1=0a1b2c3d,t=1772410530000')).toBe(false);
      const envelope = deref(post.requestBody.content['application/json'].schema);
      expect(Object.keys(envelope?.properties ?? {}).sort(), event).toEqual(['data', 'eventType', 'id', 'timestamp']);
      expect(envelope?.properties.eventType.const, event).toBe(event);
      expect(envelope?.properties.data, event).toEqual({ $ref: data });
      expect(deref(envelope?.properties.timestamp)?.format, event).toBe('date-time');
      expect(Object.keys(post.responses), event).toEqual(['200']);
    }
  });
});

describe('payments contract lint', () => {
  // The Redocly CLI as a process on the whole contract: 4 s at a load average of 20 on this 2-core machine.
  it('passes redocly lint with the repo config with no errors and no warnings', { timeout: 30_000 }, async () => {
    const report = await lint(paymentsContract.api);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
