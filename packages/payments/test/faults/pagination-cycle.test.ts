import { afterEach, describe, expect, it } from 'vitest';
import { isPaymentsError } from '../../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { secretClient } from '../support/fixtures.js';

// Fault row "the list iterator meets pages that repeat": a page whose items are those of a page already read in the
// same walk, under another address (a mock serving its one example for every page, a cursor that wraps round), stops
// the walk with a `protocol` error before any of its items is yielded: no item comes out twice. Links back to an
// address already read are caught before the request (pagination-and-settlement.test.ts).

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Page n (from `?page=n`, 1 without) holds `itemsOf(n)` and links to page n + 1 while `n < last`. */
function pages(itemsOf: (page: number) => string[], last = 50) {
  return startLoopbackServer((request, res) => {
    const page = Number(new URL(request.url, 'http://127.0.0.1').searchParams.get('page') ?? '1');
    const links = page < last ? [{ rel: 'next', href: `/rest/v1/transactions?page=${page + 1}`, requestMethod: 'GET' }] : [];
    json(res, 200, { links, data: itemsOf(page).map((receiptNumber) => ({ receiptNumber })) });
  });
}

async function walk(url: string) {
  const seen: string[] = [];
  let error: unknown;
  try {
    // Bounded, so that a missing guard fails the test instead of hanging it.
    for await (const item of await secretClient(url).transactions.list()) if (seen.push(item.receiptNumber!) > 100) break;
  } catch (caught) {
    error = caught;
  }
  return { seen, error };
}

describe('pages that repeat under new addresses', () => {
  it.each([
    { label: 'every page the same example (the Prism mock)', itemsOf: () => ['1', '2'], seen: ['1', '2'], requests: 2 },
    { label: 'a cursor that wraps round after two pages', itemsOf: (page: number) => (page % 2 ? ['1', '2'] : ['3']), seen: ['1', '2', '3'], requests: 3 },
    { label: 'the second page repeating the first after a new one', itemsOf: (page: number) => [['a'], ['b'], ['c'], ['b']][page - 1] ?? [], seen: ['a', 'b', 'c'], requests: 4 },
  ])('stop with a protocol error before yielding an item twice: $label', async ({ itemsOf, seen, requests }) => {
    server = await pages(itemsOf);
    const walked = await walk(server.url);
    expect(isPaymentsError(walked.error) && walked.error.kind).toBe('protocol');
    expect(String(walked.error)).toMatch(/already read/);
    expect(walked.seen).toEqual(seen);
    expect(server.requests).toHaveLength(requests);
  });

  it('are not confused with pages that only look alike: empty pages, and items shared with another page', async () => {
    server = await pages((page) => [[], [], ['1', '2'], ['2', '3'], ['3']][page - 1]!, 5);
    const walked = await walk(server.url);
    expect(walked.error).toBeUndefined();
    expect(walked.seen).toEqual(['1', '2', '2', '3', '3']);
    expect(server.requests).toHaveLength(5);
  });
});
