// The transactions view's address → the query of `listTransactions` (the dashboard's filters, as the sandbox gets them).
import { describe, expect, it } from 'vitest';
import { pageSize, queryFromRoute } from '../../dashboard/src/transaction-filter.js';

describe('the transactions view asks the sandbox for what its address names', () => {
  it.each([
    { address: '', query: { limit: pageSize } },
    { address: 'q=%20invoice%20', query: { q: 'invoice', limit: pageSize } },
    { address: 'status=Pending&status=Approved', query: { status: ['Pending', 'Approved'], limit: pageSize } },
    { address: 'amountMin=10&amountMax=20.5', query: { amountMin: 10, amountMax: 20.5, limit: pageSize } },
    { address: 'amountMin=ten', query: { limit: pageSize } },
    { address: 'customerId=1000000002&receiptNumber=1000000003&transactionType=REFUND', query: { customerId: '1000000002', receiptNumber: '1000000003', transactionType: 'REFUND', limit: pageSize } },
    // A day "to" includes the whole day: before the next one starts.
    { address: 'from=2026-11-28&to=2026-11-30', query: { createdFrom: '2026-11-28T00:00:00Z', createdTo: '2026-12-01T00:00:00.000Z', limit: pageSize } },
    { address: 'from=28/11/2026', query: { limit: pageSize } },
    { address: 'cursor=abc&trail=-', query: { cursor: 'abc', limit: pageSize } },
  ])('$address', ({ address, query }) => {
    expect(queryFromRoute(new URLSearchParams(address))).toEqual(query);
  });
});
