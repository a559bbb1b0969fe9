import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmokeSandbox, type SmokeSandbox } from '../src/sandbox.js';
import { runtimes, startWorker } from '../src/runtimes.js';

// Each runtime loads the package as a merchant's code does (its published entry points, built), makes its clients at
// module scope and runs the steps of consumers/steps.mjs against the local payments sandbox. The second call never
// gets an answer: only the client's deadline can end it, and it must, in a runtime that ties timers to requests too.

/** Long enough for any sandbox answer on a busy machine; every runtime waits it out once, on the held call. */
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

describe.each(runtimes)('clients made at module scope in $name', (runtime) => {
  it('answer, time out a call nothing answers, then answer through every entry point', async () => {
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
    // The deadline also closed the held request.
    await expect.poll(() => sandbox.held()).toBe(0);
  });
});

describe('workerd without the nodejs_compat flag', () => {
  it('refuses the webhook helpers, which need node:crypto (the clients need no Node built-in: they run without it above)', async () => {
    const config = { ...sandbox.client, customerNumber: 'SMOKE-no-compat' };
    await expect(startWorker('worker-webhooks.mjs', config, false)).rejects.toThrow(/No such module "node:crypto"/);
  });
});
