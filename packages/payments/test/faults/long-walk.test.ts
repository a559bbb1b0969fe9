import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { inProcessClient } from '../support/in-process-fetch.js';

// Fault row "a list of many pages": the walk's guard against pages read before (a cycle) must cost each page the
// same, however many came before it. It compared each new page with every page already read, awaiting each one's
// digest: client CPU per page grew with the walk (0.56 ms per page at the start of a 20,000-page walk, 4.5 ms at its
// end). Counted here without a clock: the promises the client makes for a walk of n pages, which the old guard made
// grow with n squared.

/** A list of `total` pages of one item each, answered in process. */
function pagedClient(total: number) {
  return inProcessClient((request) => {
    const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
    const links = page < total ? [{ rel: 'next', href: `/rest/v1/transactions?page=${page + 1}` }] : [];
    return Response.json({ links, data: [{ receiptNumber: String(page) }] });
  }).client;
}

/** How many promises a whole walk through `total` pages creates. */
async function promisesForWalk(total: number): Promise<number> {
  const client = pagedClient(total);
  let promises = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
  let items = 0;
  try {
    for await (const _ of await client.transactions.list()) items++;
  } finally {
    hook.disable();
  }
  expect(items).toBe(total);
  return promises;
}

describe('a walk through many pages', () => {
  it('costs each page the same: twice the pages, twice the work (it was four times)', async () => {
    const short = await promisesForWalk(300);
    const long = await promisesForWalk(600);
    expect(long / short).toBeGreaterThan(1.8);
    expect(long / short).toBeLessThan(2.3);
  });
});
