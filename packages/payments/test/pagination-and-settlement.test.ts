import { afterEach, describe, expect, it, vi } from 'vitest';
import { isPaymentsError, settleTransaction, transactionOutcome } from '../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { paymentRequest, secretClient } from './support/fixtures.js';
import { inProcessClient, useFakeClock } from './support/in-process-fetch.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/** Pages of 20 numbered transactions; `next` is absolute on `linkOrigin` (the service's own address by default). */
function pagedTransactions(total: number, linkOrigin?: string) {
  return startLoopbackServer((request, res) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const page = Number(url.searchParams.get('page') ?? '1');
    const start = (page - 1) * 20;
    const data = Array.from({ length: Math.max(0, Math.min(20, total - start)) }, (_, i) => ({ receiptNumber: String(start + i + 1) }));
    const origin = linkOrigin ?? `http://${request.headers.host}`;
    const links = start + 20 < total ? [{ rel: 'next', href: `${origin}/rest/v1/transactions?page=${page + 1}`, requestMethod: 'GET' }] : [];
    json(res, 200, { links, data });
  });
}

describe('pagination', () => {
  it.each([
    { total: 45, limit: undefined, items: 45, requests: 3 },
    { total: 45, limit: 20, items: 20, requests: 1 },
    { total: 45, limit: 21, items: 21, requests: 2 },
    { total: 12, limit: 100, items: 12, requests: 1 },
    { total: 0, limit: undefined, items: 0, requests: 1 },
  ])('iterates $total items with limit $limit: $items items in $requests requests', async ({ total, limit, items, requests }) => {
    server = await pagedTransactions(total);
    const page = await secretClient(server.url).transactions.list();
    const seen: string[] = [];
    for await (const transaction of page.all({ limit })) seen.push(transaction.receiptNumber!);
    expect(seen).toEqual(Array.from({ length: items }, (_, i) => String(i + 1)));
    expect(server.requests).toHaveLength(requests);
  });

  it('is itself async iterable and steps page by page', async () => {
    server = await pagedTransactions(30);
    const first = await secretClient(server.url).transactions.list();
    expect(first.items).toHaveLength(20);
    const second = await first.nextPage();
    expect(second?.items).toHaveLength(10);
    expect(second?.hasNextPage).toBe(false);
    expect(await second?.nextPage()).toBeUndefined();
    let count = 0;
    for await (const _ of first) count++;
    expect(count).toBe(30);
  });

  it('follows next links on the configured address only: the key never goes to another host', async () => {
    server = await pagedTransactions(25, 'https://elsewhere.example.net');
    const page = await secretClient(server.url).transactions.list();
    const next = await page.nextPage();
    expect(next?.items).toHaveLength(5);
    expect(server.requests.map((r) => r.url)).toEqual(['/rest/v1/transactions', '/rest/v1/transactions?page=2']);
    expect(server.requests[1]!.headers.authorization).toMatch(/^Basic /);
  });
});

describe('pagination that would never end', () => {
  /** Page n links to `nextOf(n)`, as an absolute or relative address. */
  function linkedPages(nextOf: (page: number) => string | undefined) {
    return startLoopbackServer((request, res) => {
      const page = Number(new URL(request.url, 'http://127.0.0.1').searchParams.get('page') ?? '1');
      const href = nextOf(page)?.replace('ORIGIN', `http://${request.headers.host}`);
      json(res, 200, { links: href ? [{ rel: 'next', href, requestMethod: 'GET' }] : [], data: [{ receiptNumber: `p${page}` }] });
    });
  }

  it.each([
    { label: 'back to the first page', nextOf: (page: number) => (page === 1 ? 'ORIGIN/rest/v1/transactions?page=2' : 'ORIGIN/rest/v1/transactions'), reads: 2 },
    { label: 'to itself, relatively', nextOf: () => '/rest/v1/transactions', reads: 1 },
    { label: 'from the third page back to the second', nextOf: (page: number) => `ORIGIN/rest/v1/transactions?page=${page === 3 ? 2 : page + 1}`, reads: 3 },
  ])('stops with a protocol error when a next link leads $label', async ({ nextOf, reads }) => {
    server = await linkedPages(nextOf);
    const page = await secretClient(server.url).transactions.list();
    const seen: string[] = [];
    let error: unknown;
    try {
      // Bounded, so that a missing guard fails the test instead of hanging it.
      for await (const transaction of page) if (seen.push(transaction.receiptNumber!) > 50) break;
    } catch (caught) {
      error = caught;
    }
    expect(isPaymentsError(error) && error.kind).toBe('protocol');
    expect(String(error)).toMatch(/already read/);
    expect(seen).toHaveLength(reads);
    expect(server.requests).toHaveLength(reads);
  });

  it('lets each walk through a list have its own pages: the same page may be read again from the start', async () => {
    server = await pagedTransactions(45);
    const first = await secretClient(server.url).transactions.list();
    for (let walk = 0; walk < 2; walk++) {
      let count = 0;
      for await (const _ of first) count++;
      expect(count).toBe(45);
    }
    expect((await first.nextPage())?.items).toHaveLength(20);
    expect((await first.nextPage())?.items).toHaveLength(20);
  });
});

describe('transaction outcome and settlement', () => {
  it.each([
    { status: 201, body: { status: 'Approved' }, outcome: 'approved' },
    { status: 201, body: { status: 'Declined' }, outcome: 'undetermined' },
    { status: 201, body: {}, outcome: 'undetermined' },
    { status: 202, body: { status: 'Approved' }, outcome: 'pending' },
    { status: 200, body: { status: 'Pending' }, outcome: 'pending' },
  ] as const)('a $status with $body is $outcome', ({ status, body, outcome }) => {
    expect(transactionOutcome({ status, data: body })).toBe(outcome);
  });

  it('polls a 202 until the transaction settles', async () => {
    server = await startLoopbackServer((request, res, index) => {
      if (request.method === 'POST') return json(res, 202, { receiptNumber: '77', status: 'Pending' });
      json(res, 200, { receiptNumber: '77', status: index < 3 ? 'Pending' : 'Approved' });
    });
    const settled = await settleTransaction(secretClient(server.url).transactions, paymentRequest, { pollIntervalMs: 5 });
    expect(settled.outcome).toBe('approved');
    expect(settled.created.status).toBe(202);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /rest/v1/transactions',
      'GET /rest/v1/transactions/77',
      'GET /rest/v1/transactions/77',
      'GET /rest/v1/transactions/77',
    ]);
  });

  it('reports a status the contract does not name on a 201 as undetermined, without polling', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, { receiptNumber: '78', status: 'Declined' }));
    const settled = await settleTransaction(secretClient(server.url).transactions, paymentRequest);
    expect(settled.outcome).toBe('undetermined');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the settle timeout, without a read past it, and names the receipt number', async () => {
    useFakeClock();
    const { client, requests, sentAt } = inProcessClient((request) =>
      Response.json({ receiptNumber: '79', status: 'Pending' }, { status: request.method === 'POST' ? 202 : 200 }),
    );
    const settling = settleTransaction(client.transactions, paymentRequest, { pollIntervalMs: 20, settleTimeoutMs: 1_500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await settling;
    expect(isPaymentsError(error) && error.kind).toBe('timeout');
    expect(String(error)).toMatch(/79/);
    expect(requests.slice(1).every((r) => r.method === 'GET' && r.url.endsWith('/transactions/79'))).toBe(true);
    expect(sentAt.at(-1)).toBeGreaterThanOrEqual(1_500 - 20);
    expect(sentAt.at(-1)).toBeLessThanOrEqual(1_500);
  });

  it('stops waiting for settlement when the caller aborts', async () => {
    useFakeClock();
    const { client, requests } = inProcessClient((request) =>
      Response.json({ receiptNumber: '80', status: 'Pending' }, { status: request.method === 'POST' ? 202 : 200 }),
    );
    const controller = new AbortController();
    const settling = settleTransaction(client.transactions, paymentRequest, { pollIntervalMs: 10_000, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(5_000);
    controller.abort();
    const error = await settling;
    expect(isPaymentsError(error) && error.kind).toBe('aborted');
    expect(requests).toHaveLength(1);
  });
});
