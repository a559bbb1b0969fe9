import { describe, expect, it } from 'vitest';
import { loadPaymentsContract } from '../src/contract/contract.js';
import { notificationProblems } from '../src/contract/response-check.js';
import { ContractChecker } from '../src/contract/contract-checker.js';

// The sandbox checks each webhook body it sends against the event's schema, found in the generated operation table,
// with the toolkit's one validator (@paykit/contract-validation's webhook entries), as the sandbox itself does.
const contract = loadPaymentsContract();
const validator = new ContractChecker();

describe('a webhook notification against the contract', () => {
  it('knows the contract\'s events from the generated table', () => {
    expect([...contract.webhooks.keys()].sort()).toEqual(['alias.payment.received', 'alias.registered']);
  });

  it('names an event the contract does not declare', () => {
    expect(notificationProblems(validator, contract, 'alias.renamed', {})).toEqual(['webhook alias.renamed: the contract declares no such event']);
  });

  it('passes a body of a declared event that keeps its schema, and names one that breaks it', () => {
    expect(notificationProblems(validator, contract, 'alias.registered', { eventType: 'alias.registered' })).toEqual([]);
    expect(notificationProblems(validator, contract, 'alias.registered', { eventType: 'alias.deregistered' })).toEqual(['webhook alias.registered: eventType must be "alias.registered"']);
  });

  it('names each field of a body with a wrong type, on both events', () => {
    expect(notificationProblems(validator, contract, 'alias.registered', { eventType: 'alias.registered', timestamp: 7, data: 'x' })).toEqual([
      'webhook alias.registered: timestamp must be string',
      'webhook alias.registered: data must be object',
    ]);
    expect(notificationProblems(validator, contract, 'alias.payment.received', { eventType: 'alias.registered' })).toEqual([
      'webhook alias.payment.received: eventType must be "alias.payment.received"',
    ]);
  });

  it('has a compiled schema for each event\'s body in the shared validator\'s table', () => {
    const pointers = [...contract.webhooks.values()];
    expect(pointers).toEqual(expect.arrayContaining(['#/components/schemas/AliasRegisteredNotification', '#/components/schemas/AliasPaymentReceivedNotification']));
    expect(pointers.filter((pointer) => pointer === undefined || !validator.covers(pointer))).toEqual([]);
  });
});
