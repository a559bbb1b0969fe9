import { paymentsSandboxControlContract } from '@paykit/contract-validation';
import { describe, expect, it } from 'vitest';
import { ContractChecker } from '../src/contract/contract-checker.js';
import { controlOperationTable } from '../src/generated/control/operations.js';
import { paymentsSandboxControlSensitive } from '../src/generated/sensitive.js';

// The control interface's checks run on the toolkit's one validator (@paykit/contract-validation's table of the
// control contract), with the problems the sandbox's own ajv wrapper gave before it was removed (issue 35, item 2:
// the expected lists below are what that wrapper answered for the same bodies).
const checker = new ContractChecker(paymentsSandboxControlSensitive, paymentsSandboxControlContract);
const eventStream = '#/components/schemas/SandboxEvent';
/** Every schema pointer of the control operation table. */
const pointers = [...new Set(JSON.stringify(controlOperationTable).match(/#\/[^"]+/g))];

describe('the control contract on the shared validator', () => {
  it('has a compiled schema for every pointer of the control operations but the event stream, which is not JSON', () => {
    expect(pointers.length).toBeGreaterThan(40);
    expect(pointers).toContain(eventStream);
    expect(pointers.filter((pointer) => !checker.covers(pointer))).toEqual([eventStream]);
    // The one media the sandbox never checks as JSON: a pointer without a compiled schema is the sandbox's fault.
    expect(JSON.stringify(controlOperationTable)).toMatch(/"text\/event-stream":"#\/components\/schemas\/SandboxEvent"/);
    expect(() => checker.check(eventStream, {})).toThrow(/no compiled schema for #\/components\/schemas\/SandboxEvent/);
  });

  it.each([
    { what: 'a missing field', body: {}, problems: [{ fieldName: 'ms', fieldValue: '', messages: ['is required'] }] },
    { what: 'a field of the wrong type', body: { ms: '5' }, problems: [{ fieldName: 'ms', fieldValue: '5', messages: ['must be number'] }] },
    { what: 'a field the contract does not have', body: { ms: 5, extra: 1 }, problems: [{ fieldName: 'extra', fieldValue: '1', messages: ['is not allowed here'] }] },
    { what: 'a value below the minimum', body: { ms: -1 }, problems: [{ fieldName: 'ms', fieldValue: '-1', messages: ['must be >= 0'] }] },
  ])('names the problems of $what as before', ({ body, problems }) => {
    expect(checker.check('#/components/schemas/ClockAdvance', body)).toEqual(problems);
  });

  it('passes a valid body', () => {
    expect(checker.check('#/components/schemas/ClockAdvance', { ms: 5 })).toEqual([]);
  });
});
