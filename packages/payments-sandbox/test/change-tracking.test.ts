import { describe, expect, it } from 'vitest';
import type { CustomerRecord, SandboxState } from '../src/state/state.js';
import { ChangeTracker, trackedState, writesNothing, type TrackedMap } from '../src/state/tracking.js';

/** Puts customer `id` in the state as the store would, read back (not a change). */
const loadCustomer = (state: SandboxState, customer: CustomerRecord) => (state.customers as TrackedMap<CustomerRecord>).load(customer.customerId, customer);
type Work = (state: SandboxState) => void;

/** A tracked state holding customer `1` (saved: nothing pending), and what one tracked stretch of `work` makes a store write. */
function written(work: Work) {
  let state!: SandboxState;
  const tracker = new ChangeTracker(() => state);
  state = trackedState(tracker);
  loadCustomer(state, { customerId: '1', createdAt: 1, fields: { customerName: 'Ann' } });
  expect(tracker.pending()).toBe(false);
  tracker.track(() => work(state));
  const batch = tracker.take();
  return { batch, rows: batch.rows.map((row) => ({ key: row.key, value: row.value === null ? null : JSON.parse(row.json ?? JSON.stringify(row.value)) })) };
}

const renamed = { customerId: '1', createdAt: 1, fields: { customerName: 'Bob' } };

describe('what a tracked stretch of work makes the store write', () => {
  const cases: [string, Work, { key: string; value: unknown }[]][] = [
    ['a record only looked up', (s: SandboxState) => void s.customers.get('1'), []],
    ['a record looked up twice, never changed', (s: SandboxState) => (s.customers.get('1'), void s.customers.get('1')), []],
    ['a record looked up and changed in place', (s: SandboxState) => void (s.customers.get('1')!.fields.customerName = 'Bob'), [{ key: '1', value: renamed }]],
    [
      'a record changed in place at its second lookup',
      (s: SandboxState) => (s.customers.get('1'), void (s.customers.get('1')!.fields.customerName = 'Bob')),
      [{ key: '1', value: renamed }],
    ],
    ['a record set again unchanged (an explicit set is always written)', (s: SandboxState) => void s.customers.set('1', s.customers.get('1')!), [{ key: '1', value: { customerId: '1', createdAt: 1, fields: { customerName: 'Ann' } } }]],
    ['a record looked up, then removed', (s: SandboxState) => (s.customers.get('1'), void s.customers.delete('1')), [{ key: '1', value: null }]],
    [
      'a record removed, then put back changed and looked up',
      (s: SandboxState) => {
        s.customers.delete('1');
        s.customers.set('1', renamed as CustomerRecord);
        s.customers.get('1');
      },
      [{ key: '1', value: renamed }],
    ],
    ['a record looked up and changed back before the write', (s: SandboxState) => {
      const customer = s.customers.get('1')!;
      customer.fields.customerName = 'Bob';
      customer.fields.customerName = 'Ann';
    }, []],
  ];
  it.each(cases)('%s', (_, work, expected) => {
    expect(written(work).rows).toEqual(expected);
  });

  it('a record looked up outside tracked work is not written, and one only looked up leaves a batch that writes nothing', () => {
    let state!: SandboxState;
    const tracker = new ChangeTracker(() => state);
    state = trackedState(tracker);
    loadCustomer(state, { customerId: '1', createdAt: 1, fields: {} });
    state.customers.get('1')!.fields.customerName = 'outside';
    expect(tracker.pending()).toBe(false);
    tracker.track(() => state.customers.get('1'));
    expect(tracker.pending()).toBe(true);
    const batch = tracker.take();
    expect(batch.rows).toEqual([]);
    expect(writesNothing(batch)).toBe(true);
    expect(tracker.pending()).toBe(false);
  });

  it('what a lookup saw is forgotten by take and discard: the next stretch compares with the record as it is then', () => {
    let state!: SandboxState;
    const tracker = new ChangeTracker(() => state);
    state = trackedState(tracker);
    loadCustomer(state, { customerId: '1', createdAt: 1, fields: { customerName: 'Ann' } });
    tracker.track(() => (state.customers.get('1')!.fields.customerName = 'Bob'));
    expect(tracker.take().rows.map((row) => row.key)).toEqual(['1']);
    tracker.track(() => state.customers.get('1'));
    expect(tracker.take().rows).toEqual([]);
    tracker.track(() => (state.customers.get('1')!.fields.customerName = 'Cy'));
    tracker.discard();
    expect(tracker.pending()).toBe(false);
    tracker.track(() => (state.customers.get('1')!.fields.customerName = 'Di'));
    expect(tracker.take().rows.map((row) => JSON.parse(row.json!).fields.customerName)).toEqual(['Di']);
  });

  it('a changed sequence alone is a batch that writes', () => {
    const { batch } = written((s) => {
      s.customers.get('1');
      s.sequence += 1;
    });
    expect(batch.rows).toEqual([]);
    expect(writesNothing(batch)).toBe(false);
  });
});
