// The control interface against its contract (specs/payments-sandbox-control): every operation of the contract is
// served and nothing else is, every answer validates against the contract, and only a holder of the control token,
// from the sandbox's own origin, with a JSON body, gets through.
import { afterAll, describe, expect, it } from 'vitest';
import { matchPath } from '../src/contract/contract.js';
import { controlOperations } from '../src/generated/control/client.js';
import { createSandboxControl, SandboxControlError, startPaymentsSandbox, type PaymentsSandbox } from '../src/index.js';
import { everyItem, basic, call, cardToken, paymentRequest, sandboxPerTest } from './support.js';
import { answerProblems, controlContract as contract } from './support/control-contract.js';

const env = sandboxPerTest();

describe('payments sandbox control interface: the contract', () => {
  const seen = new Map<string, number[]>();
  const problems: string[] = [];
  /** A client whose every exchange is checked against the contract and recorded by operation. */
  const checkedControl = () =>
    createSandboxControl(env.sandbox.origin, {
      token: env.sandbox.controlToken,
      fetch: async (request) => {
        const response = await fetch(request);
        const text = await response.clone().text();
        problems.push(...answerProblems(request.method, request.url, response.status, text));
        const path = new URL(request.url).pathname.replace(/^\/__sandbox/, '');
        const operationId = matchPath(contract, path)?.path.operations.get(request.method)?.operationId ?? `${request.method} ${path}`;
        seen.set(operationId, [...(seen.get(operationId) ?? []), response.status]);
        return response;
      },
    });

  it('serves every operation of the contract through the generated client, each answer valid against it', async () => {
    const control = checkedControl();
    await control.resetSandbox();
    await control.getClock();
    await control.advanceClock({ ms: 1_000 });
    await control.getSettings();
    await control.changeSettings({ processingDelayMs: 0 });
    await control.injectFault({ fault: { status: 503 }, operationId: 'getFacility' });
    await control.getFaults();
    await control.setRandomFaults({ faults: [{ fault: { drop: 'before' }, probability: 0 }], seed: 1 });
    await control.clearRandomFaults();
    await control.clearFaults();
    await expect(control.payAlias('no-such-alias', { amount: 1 })).rejects.toMatchObject({ status: 404 });
    const token = await cardToken(env);
    await expect(control.completeChallenge(token, { transStatus: 'Y' })).rejects.toMatchObject({ status: 422 });
    const subscription = await control.createWebhookSubscription({ url: 'http://127.0.0.1:9/hooks', secret: 'whsec_contract' });
    await control.listWebhookSubscriptions();
    await control.deleteWebhookSubscription(subscription.id);
    await expect(control.deleteWebhookSubscription(subscription.id)).rejects.toMatchObject({ status: 404 });
    await everyItem((q) => control.listWebhookDeliveries(q));
    await control.listWebhookDeliveries({ outcome: 'failing', limit: 1 });
    await expect(control.createWebhookDeliveryAttempt('no-such-delivery')).rejects.toMatchObject({ status: 404 });
    const paid = await env.secret.transactions.create(paymentRequest(await cardToken(env)) as never, { idempotencyKey: 'contract-timeline' });
    const receiptNumber = (paid.data as { receiptNumber: string }).receiptNumber;
    await everyItem((q) => control.listTransactions(q));
    await control.listTransactions({ status: ['Approved', 'Pending'], q: receiptNumber.slice(-3), amountMin: 0, createdFrom: '2000-01-01T00:00:00Z', limit: 1 });
    await expect(control.listTransactions({ limit: 0 })).rejects.toMatchObject({ status: 400 });
    await control.getTransactionTimeline(receiptNumber);
    await expect(control.getTransactionTimeline('0')).rejects.toMatchObject({ status: 404 });
    await control.listCustomers();
    await control.listAliases({ limit: 10 });
    await control.listRecurringPayments();
    await control.listRequests({ failed: false });
    await control.listContractViolations();
    // The stream has no method (it never ends): opened as a browser's EventSource would, its head checked.
    const open = new AbortController();
    const stream = await fetch(`${env.sandbox.controlUrl}/events`, { headers: { authorization: `Bearer ${env.sandbox.controlToken}` }, signal: open.signal });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    seen.set('listEvents', [stream.status]);
    open.abort();
    await expect(control.advanceClock({ ms: -1 })).rejects.toMatchObject({ status: 400 });
    expect(problems).toEqual([]);
    expect([...seen.keys()].sort()).toEqual(Object.keys(controlOperations).sort());
  });

  it.each(Object.entries(controlOperations))('%s: another method on its path gets 405', async (_id, { path, method }) => {
    const concrete = path.replace(/\{[^}]+\}/g, 'x');
    const declared = Object.values(controlOperations).filter((o) => o.path === path).map((o) => o.method as string);
    const other = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'].find((m) => !declared.includes(m))!;
    const response = await fetch(`${env.sandbox.controlUrl}${concrete}`, { method: other, headers: { authorization: `Bearer ${env.sandbox.controlToken}` } });
    expect(response.status, `${other} ${path} beside ${method}`).toBe(405);
  });

  it.each(['/nothing', '/transactions/1', '/faults/random/1', '/clock/advance/more', '/'])('serves nothing else: %s gets 404', async (path) => {
    const response = await fetch(`${env.sandbox.controlUrl}${path}`, { headers: { authorization: `Bearer ${env.sandbox.controlToken}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringContaining('no control endpoint') });
  });

  it.each([
    { what: 'a body that is not JSON', body: 'ms=5', problem: 'JSON' },
    { what: 'a missing field', body: '{}', problem: 'ms' },
    { what: 'a field of the wrong type', body: '{"ms":"5"}', problem: 'ms' },
    { what: 'a field the contract does not have', body: '{"ms":5,"extra":1}', problem: 'extra' },
  ])('refuses $what with 400 and says why', async ({ body, problem }) => {
    const response = await fetch(`${env.sandbox.controlUrl}/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.sandbox.controlToken}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain(problem);
    expect((await env.sandbox.control.getClock()).offsetMs).toBe(0);
  });
});

describe('payments sandbox control interface: who may use it', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const reset = (headers: Record<string, string>, body?: string) =>
    fetch(`${env.sandbox.controlUrl}/clock/advance`, { method: 'POST', headers, body: body ?? JSON.stringify({ ms: 60_000 }) });

  it.each([
    { who: 'no token', headers: () => ({ 'content-type': 'application/json' }), status: 401, error: 'control token' },
    { who: 'a wrong token', headers: () => ({ ...bearer('ctl_sandbox_not-the-right-one'), 'content-type': 'application/json' }), status: 401, error: 'not this sandbox' },
    { who: 'an API key instead', headers: () => ({ authorization: basic(env.secretKey), 'content-type': 'application/json' }), status: 401, error: 'control token' },
    { who: 'another origin', headers: () => ({ ...bearer(env.sandbox.controlToken), origin: 'http://evil.example', 'content-type': 'application/json' }), status: 403, error: 'another origin' },
    { who: 'an opaque origin', headers: () => ({ ...bearer(env.sandbox.controlToken), origin: 'null', 'content-type': 'application/json' }), status: 403, error: 'another origin' },
    { who: 'another site', headers: () => ({ ...bearer(env.sandbox.controlToken), 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }), status: 403, error: 'another site' },
    ...['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain;charset=UTF-8'].map((type) => ({
      who: `a simple form (${type})`,
      headers: () => ({ ...bearer(env.sandbox.controlToken), 'content-type': type }),
      status: 415,
      error: 'application/json',
    })),
  ])('refuses $who with $status, a clear body, and does nothing', async ({ headers, status, error }) => {
    const response = await reset(headers());
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((await response.json()).error).toContain(error);
    expect((await env.sandbox.control.getClock()).offsetMs).toBe(0);
  });

  it.each([
    { who: 'the token, no origin (a test process)', headers: () => bearer(env.sandbox.controlToken) },
    { who: 'the token from its own origin', headers: () => ({ ...bearer(env.sandbox.controlToken), origin: env.sandbox.origin }) },
    { who: 'the token from the same origin by its loopback name', headers: () => ({ ...bearer(env.sandbox.controlToken), origin: env.sandbox.origin.replace('127.0.0.1', 'localhost') }) },
  ])('accepts $who', async ({ headers }) => {
    const response = await reset({ ...headers(), 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect((await response.json()).offsetMs).toBe(60_000);
  });

  it('the API refuses the control token: it is no API key', async () => {
    const response = await call(env.sandbox, 'GET', '/', { key: null, headers: bearer(env.sandbox.controlToken) });
    expect(response.status).toBe(401);
  });

  it('the generated client throws SandboxControlError with the status and the message for a wrong token', async () => {
    const wrong = createSandboxControl(env.sandbox.origin, { token: 'ctl_sandbox_wrong-token-123' });
    const failure = await wrong.resetSandbox().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxControlError);
    expect(failure).toMatchObject({ status: 401, message: expect.stringContaining('not this sandbox') });
  });

  it.each([
    { what: 'no token', origin: 'http://127.0.0.1:4012', options: {} },
    { what: 'an empty token', origin: 'http://127.0.0.1:4012', options: { token: '' } },
    { what: 'an origin that is no address', origin: '127.0.0.1:4012', options: { token: 't' } },
  ])('createSandboxControl refuses $what before any request', ({ origin, options }) => {
    expect(() => createSandboxControl(origin, options as never)).toThrow(TypeError);
  });
});

describe('payments sandbox control token and listening address', () => {
  const started: PaymentsSandbox[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  const start = async (options: Parameters<typeof startPaymentsSandbox>[0]) => {
    const sandbox = await startPaymentsSandbox(options);
    started.push(sandbox);
    return sandbox;
  };

  it('generates a new token per sandbox when none is given', async () => {
    const [a, b] = [await start({}), await start({})];
    expect(a.generatedControlToken).toBe(true);
    expect(a.controlToken).toMatch(/^ctl_sandbox_[\w-]{32}$/);
    expect(a.controlToken).not.toBe(b.controlToken);
    await expect(createSandboxControl(b.origin, { token: a.controlToken }).getClock()).rejects.toMatchObject({ status: 401 });
  });

  it('takes a given token', async () => {
    const sandbox = await start({ controlToken: 'given-control-token-0123' });
    expect(sandbox.generatedControlToken).toBe(false);
    expect((await createSandboxControl(sandbox.origin, { token: 'given-control-token-0123' }).getClock()).offsetMs).toBe(0);
  });

  it.each(['short', 'has a space in it, long enough', ''])('refuses the token %j before listening', async (controlToken) => {
    await expect(startPaymentsSandbox({ controlToken })).rejects.toThrow(TypeError);
  });

  it.each([
    { host: '127.0.0.1', warned: false },
    { host: '0.0.0.0', warned: true },
  ])('on $host it warns: $warned', async ({ host, warned }) => {
    const warnings: string[] = [];
    await start({ host, onWarning: (message) => warnings.push(message) });
    expect(warnings.length > 0).toBe(warned);
    if (warned) expect(warnings[0]).toContain('other machines can reach');
  });

  it.each([
    { host: '0.0.0.0', named: '127.0.0.1' },
    { host: '::', named: '[::1]' },
    { host: '127.0.0.1', named: '127.0.0.1' },
  ])('listening on $host, the addresses it hands out name $named, and they answer', async ({ host, named }) => {
    const sandbox = await start({ host, onWarning: () => {} });
    for (const address of [sandbox.url, sandbox.origin, sandbox.controlUrl]) expect(new URL(address).hostname).toBe(named);
    expect((await sandbox.control.getClock()).offsetMs).toBe(0);
  });
});
