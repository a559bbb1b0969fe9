// end-to-end: each runtime (Node twice, Bun, Deno, workerd) is a process of its own, and one call in each waits for
// the client's real deadline.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSmokeSandbox, type SmokeSandbox } from '../src/sandbox.js';
import { runtimes, startWorker } from '../src/runtimes.js';

// Each runtime loads the package as a merchant's code does (its published entry points, built), makes its clients at
// module scope and runs the steps of consumers/steps.mjs against the local payments sandbox. The second call never
// gets an answer: only the client's deadline can end it, and it must, in a runtime that ties timers to requests too.
// The runtimes run side by side, so that the run waits for one deadline, not for one per runtime.

/**
 * The clients' deadline (one per client: every call has it). Long enough for any answer of the local sandbox at
 * any load this machine sees, so that only the held call can meet it: a scheduling pause cannot change a verdict.
 */
const timeoutMs = 10_000;
/** A runtime still running after this has lost a deadline (or hangs for another reason): it is killed. */
const limitMs = 60_000;

let sandbox: SmokeSandbox;
beforeAll(async () => {
  sandbox = await startSmokeSandbox(timeoutMs);
});
afterAll(async () => {
  await sandbox?.close();
});

// describe.concurrent: the runtimes' tests run side by side (the titles are the ones the payments README cites).
describe.concurrent.each(runtimes)('clients made at module scope in $name', (runtime) => {
  it('answer, time out a call nothing answers, then answer through every entry point', { timeout: limitMs + 30_000 }, async ({ expect }) => {
    const customerNumber = `SMOKE-${runtime.name.replace(/\W+/g, '-')}`;
    const outcomes = await runtime.run({ ...sandbox.client, customerNumber }, limitMs);
    expect(outcomes).toEqual({
      create: { status: 201, attempts: 1, idempotencyKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) },
      stall: { kind: 'timeout', attempts: 1 },
      list: { found: [customerNumber] },
      raw: { status: 200 },
      settle: { outcome: 'approved', status: 201 },
      webhook: { verified: true, tampered: 'signature-mismatch' },
    });
    // The timeout was the held call's own: it reached the front, once, and its deadline closed it there.
    expect(sandbox.arrived(customerNumber)).toBe(1);
    await expect.poll(() => sandbox.held(customerNumber), { timeout: 10_000 }).toBe(0);
  });
});

describe.concurrent('workerd without the nodejs_compat flag', () => {
  it('refuses the webhook helpers, which need node:crypto (the clients need no Node built-in: they run without it above)', { timeout: limitMs }, async ({ expect }) => {
    const config = { ...sandbox.client, customerNumber: 'SMOKE-no-compat' };
    await expect(startWorker('worker-webhooks.mjs', config, false)).rejects.toThrow(/No such module "node:crypto"/);
  });
});
