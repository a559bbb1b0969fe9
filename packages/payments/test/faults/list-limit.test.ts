import { afterEach, describe, expect, it } from 'vitest';
import { isPaymentsError } from '../../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { secretClient } from '../support/fixtures.js';

// Fault row "NaN, Infinity, negative or empty option" for the list iterator: `all({ limit })` from an unset variable
// (NaN), a negative or a fractional number would stop at once or never; it is refused before any item is yielded and
// before a next page is asked for.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function twoPages() {
  return startLoopbackServer((request, res) => {
    const page = Number(new URL(request.url, 'http://127.0.0.1').searchParams.get('page') ?? '1');
    const links = page < 2 ? [{ rel: 'next', href: '/rest/v1/transactions?page=2', requestMethod: 'GET' }] : [];
    json(res, 200, { links, data: [{ receiptNumber: `${page}a` }, { receiptNumber: `${page}b` }] });
  });
}

describe('all({ limit })', () => {
  it.each([{ limit: Number.NaN }, { limit: -1 }, { limit: 1.5 }, { limit: -Infinity }])(
    'refuses limit $limit with a configuration error naming it, before yielding or loading more',
    async ({ limit }) => {
      server = await twoPages();
      const first = await secretClient(server.url).transactions.list();
      const seen: string[] = [];
      let error: unknown;
      try {
        for await (const item of first.all({ limit })) seen.push(item.receiptNumber!);
      } catch (caught) {
        error = caught;
      }
      expect(isPaymentsError(error) && error.kind).toBe('configuration');
      expect(isPaymentsError(error) && error.option).toBe('limit');
      expect(seen).toEqual([]);
      expect(server.requests).toHaveLength(1);
    },
  );

  it.each([
    { limit: undefined, seen: ['1a', '1b', '2a', '2b'], requests: 2 },
    { limit: 0, seen: [], requests: 1 },
    { limit: 3, seen: ['1a', '1b', '2a'], requests: 2 },
    { limit: 2, seen: ['1a', '1b'], requests: 1 },
  ])('yields $limit items at most, loading only the pages it needs', async ({ limit, seen, requests }) => {
    server = await twoPages();
    const first = await secretClient(server.url).transactions.list();
    const got: string[] = [];
    for await (const item of first.all({ limit })) got.push(item.receiptNumber!);
    expect(got).toEqual(seen);
    expect(server.requests).toHaveLength(requests);
  });
});
