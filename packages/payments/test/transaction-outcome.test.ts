import { describe, expect, expectTypeOf, it } from 'vitest';
import { settleTransaction, transactionOutcome, type TransactionOutcome } from '../src/index.js';
import { rules } from '../src/generated/rules.js';
import { outcomeOf } from '../src/transactions/settlement.js';
import { paymentRequest } from './support/fixtures.js';
import { inProcessClient } from './support/in-process-fetch.js';

// The reference names `Approved` and pending, lists "transactions suspended by fraud screening", and names no decline.
describe('a transaction status is never guessed to be a decline', () => {
  it('the contract names no decline status (the reference lists none), so the type has no declined outcome', () => {
    expect(rules.transactionStatus).toMatchObject({ approved: ['Approved'], pending: ['pending'], declined: [] });
    expectTypeOf<TransactionOutcome>().toEqualTypeOf<'approved' | 'pending' | 'undetermined'>();
  });

  it.each([
    { status: 201, body: { status: 'Approved' }, outcome: 'approved' },
    { status: 200, body: { status: 'Approved' }, outcome: 'approved' },
    { status: 202, body: { status: 'Approved' }, outcome: 'pending' },
    { status: 201, body: { status: 'Pending' }, outcome: 'pending' },
    { status: 200, body: { status: 'PENDING' }, outcome: 'pending' },
    { status: 201, body: { status: 'Declined' }, outcome: 'undetermined' },
    { status: 201, body: { status: 'Suspended' }, outcome: 'undetermined' },
    { status: 201, body: { status: 'approved' }, outcome: 'undetermined' },
    { status: 201, body: { status: '' }, outcome: 'undetermined' },
    { status: 201, body: {}, outcome: 'undetermined' },
    { status: 201, body: undefined, outcome: 'undetermined' },
  ] as const)('a $status with $body is $outcome', ({ status, body, outcome }) => {
    expect(transactionOutcome({ status, data: body })).toBe(outcome);
  });

  // What the client does once the contract lists a decline status: the same reading with a non-empty list.
  it.each([
    { status: 'Declined', outcome: 'declined' },
    { status: 'Approved', outcome: 'approved' },
    { status: 'pending', outcome: 'pending' },
    { status: 'Refused', outcome: 'undetermined' },
    { status: 'declined', outcome: 'undetermined' },
  ])('with Declined listed as a decline, $status is $outcome', ({ status, outcome }) => {
    expect(outcomeOf(201, status, { approved: ['Approved'], pending: ['pending'], declined: ['Declined'] })).toBe(outcome);
  });

  it('settleTransaction returns a suspended transaction as undetermined, at once and without taking the payment again', async () => {
    const { client, requests } = inProcessClient(() => Response.json({ receiptNumber: '81', status: 'Suspended' }, { status: 201 }));
    const settled = await settleTransaction(client.transactions, paymentRequest as never);
    expect(settled.outcome).toBe('undetermined');
    expect(settled.transaction.receiptNumber).toBe('81');
    expect(requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('settleTransaction reads a pending transaction that leaves pending for a status the contract does not name as undetermined', async () => {
    const { client, requests } = inProcessClient((request, index) =>
      Response.json({ receiptNumber: '82', status: index === 0 ? 'Pending' : 'Suspended' }, { status: request.method === 'POST' ? 202 : 200 }),
    );
    const settled = await settleTransaction(client.transactions, paymentRequest as never, { pollIntervalMs: 1 });
    expect(settled.outcome).toBe('undetermined');
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });
});
