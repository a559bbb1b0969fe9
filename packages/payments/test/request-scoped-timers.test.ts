import { afterEach, describe, expect, it, vi } from 'vitest';
import { inProcessClient, useFakeClock } from './support/in-process-fetch.js';

// Cloudflare's workerd ties each timer to the request that armed it: when that request is over, its timers never
// fire. A client kept at module scope serves many requests, so a call's deadline must rest on a timer of its own
// call (tools/runtime-smoke runs the same case in workerd itself).

const approvedTransaction = { receiptNumber: '1000000001', status: 'Approved' };

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Timers as workerd keeps them, on the fake clock: `endRequest()` drops every timer armed since the last one. */
function requestScopedTimers() {
  const { setTimeout: arm, clearTimeout: clear } = globalThis;
  let armed: ReturnType<typeof setTimeout>[] = [];
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
    const timer = arm(...args);
    armed.push(timer);
    return timer;
  }) as typeof setTimeout);
  return {
    endRequest() {
      for (const timer of armed) clear(timer);
      armed = [];
    },
  };
}

describe('a client kept across requests whose timers end with them', () => {
  it.each([
    { gap: 'at once', gapMs: 0 },
    { gap: 'after the first deadline would have passed', gapMs: 500 },
  ])('still times out a call of the second request, started $gap', async ({ gapMs }) => {
    useFakeClock();
    const runtime = requestScopedTimers();
    // The first request's call is answered at once; every later one never is.
    const { client } = inProcessClient((_request, index) => (index === 0 ? Response.json(approvedTransaction) : new Promise<Response>(() => {})), {
      timeoutMs: 150,
    });
    expect((await client.transactions.get('1000000001')).status).toBe(200);
    runtime.endRequest();
    await vi.advanceTimersByTimeAsync(gapMs);

    let outcome: unknown = 'still waiting';
    client.transactions.get('1000000001').then(
      () => (outcome = 'answered'),
      (error: { kind?: string }) => (outcome = error.kind),
    );
    await vi.advanceTimersByTimeAsync(150);
    expect(outcome).toBe('timeout');
  });
});

describe("a call's deadline timer", () => {
  it('is its own, cleared when the call ends, and does not hold the process open', async () => {
    const arm = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    const { client } = inProcessClient(() => Response.json(approvedTransaction), { timeoutMs: 60_000 });
    for (let call = 1; call <= 3; call++) await client.transactions.get('1000000001');
    const timers = arm.mock.calls.flatMap((args, i) => (args[1] === 60_000 ? [arm.mock.results[i]!.value as NodeJS.Timeout] : []));
    expect(timers).toHaveLength(3);
    expect(timers.map((timer) => timer.hasRef())).toEqual([false, false, false]);
    expect(clear.mock.calls.map(([timer]) => timer)).toEqual(expect.arrayContaining(timers));
  });
});
