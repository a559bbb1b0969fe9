import { vi } from 'vitest';
import { createSecretClient, type PaymentsClientOptions } from '../../src/index.js';
import { secretKey } from './fixtures.js';

/** Decides the answer to the n-th request (0-based); it may take its time (on fake timers, say) or never come. */
export type Answer = (request: Request, index: number) => Response | Promise<Response>;

/**
 * A secret client on an in-process fetch, for unit tests of the client's timing: with fake timers, hours of
 * deadlines and waits pass in no time, which real sockets would not allow. Like a real fetch, the request's signal
 * ends it.
 */
export function inProcessClient(answer: Answer, options: Partial<PaymentsClientOptions> = {}) {
  const requests: Request[] = [];
  const sentAt: number[] = [];
  const fetch = (request: Request) =>
    new Promise<Response>((resolve, reject) => {
      const index = requests.push(request) - 1;
      sentAt.push(performance.now());
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      Promise.resolve(answer(request, index)).then(resolve, reject);
    });
  const client = createSecretClient({ apiKey: secretKey, baseUrl: 'https://api.example.test/rest/v1', fetch, ...options });
  return { client, requests, sentAt };
}

/**
 * Fake timers, performance clock and date, the date on a whole second (HTTP dates have no milliseconds);
 * `vi.useRealTimers()` (in an afterEach) puts the real ones back.
 */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'], now: Date.UTC(2026, 10, 22, 10, 0, 0) });
}

/** An answer after `ms` milliseconds of the fake clock (`useFakeClock`): its callers advance it, nobody waits. */
export function after(ms: number, response: () => Response): Promise<Response> {
  return new Promise((resolve) => setTimeout(() => resolve(response()), ms));
}
