import { describe, expect, it } from 'vitest';
import type { ClientOutcome } from '../src/payments-invoker.js';
import { fixtureRenaming } from '../src/sandbox-fixtures.js';
import { compareUnderMutation } from '../src/tolerance-comparison.js';

// Two sets of fixtures made by the same requests after two resets of the sandbox: the same values in the same order,
// with other identifiers (the sandbox's reset keeps its number sequence).
const first = ['TEST_BUSINESS', '1000000001', '0000000000000002', 'MA3'];
const second = ['TEST_BUSINESS', '1000000004', '0000000000000005', 'MA6'];
const asFirst = fixtureRenaming(second, first);

describe("fixtureRenaming reads one set of fixtures' identifiers as another's", () => {
  it.each([
    { what: 'a whole string', value: '1000000004', expected: '1000000001' },
    { what: "a link's address", value: 'http://127.0.0.1:1/rest/v1/customers/1000000004/accounts/0000000000000005', expected: 'http://127.0.0.1:1/rest/v1/customers/1000000001/accounts/0000000000000002' },
    { what: 'nested in arrays and objects', value: { data: [{ agreementToken: 'MA6', n: 1000000004 }] }, expected: { data: [{ agreementToken: 'MA3', n: 1000000004 }] } },
    { what: 'not a part of a longer identifier', value: ['10000000041', 'x1000000004', 'MA60', 'MA6-1'], expected: ['10000000041', 'x1000000004', 'MA60', 'MA6-1'] },
    { what: 'not other values', value: { customerNumber: 'FIXTURE-1', supplierBusinessCode: 'TEST_BUSINESS', flag: true, none: null }, expected: { customerNumber: 'FIXTURE-1', supplierBusinessCode: 'TEST_BUSINESS', flag: true, none: null } },
  ])('$what', ({ value, expected }) => {
    expect(asFirst(value)).toEqual(expected);
  });

  it('changes nothing between a set and itself', () => {
    const value = { customerId: '1000000001' };
    expect(fixtureRenaming(first, first)(value)).toBe(value);
  });

  it.each([
    { what: 'sets of other sizes', from: second, to: first.slice(1), message: /4 values made against 3/ },
    { what: 'one value standing for two', from: ['MA6', 'MA6'], to: ['MA3', 'MA4'], message: /MA6 stands for two values/ },
  ])('refuses $what', ({ from, to, message }) => {
    expect(() => fixtureRenaming(from, to)).toThrow(message);
  });
});

describe('the tolerance comparison on two sets of fixtures', () => {
  const answer = (customerId: string, customerName = 'Fixture') => ({ customerId, customerName, links: [{ rel: 'self', href: `http://h/rest/v1/customers/${customerId}`, requestMethod: 'GET' }] });
  const success = (data: unknown): ClientOutcome => ({ outcome: 'success', status: 200, data });
  const compare = (mutated: unknown) => compareUnderMutation(success(answer('1000000001')), success(mutated), mutated, asFirst);

  it('holds for answers that differ only in the identifiers of their fixtures', () => {
    expect(compareUnderMutation(success(answer('1000000001')), success(answer('1000000004')), answer('1000000004'), (body) => body)).toEqual([
      'without the mutated values, the result differs from the unmutated result',
    ]);
    expect(compare(answer('1000000004'))).toEqual([]);
  });

  it('still finds any other difference', () => {
    expect(compare(answer('1000000004', 'Other'))).toEqual(['without the mutated values, the result differs from the unmutated result']);
    expect(compare(answer('1000000007'))).toEqual(['without the mutated values, the result differs from the unmutated result']);
  });
});
