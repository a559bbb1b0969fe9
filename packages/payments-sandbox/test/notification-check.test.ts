import { describe, expect, it } from 'vitest';
import { loadPaymentsContract } from '../src/contract/contract.js';
import { notificationProblems } from '../src/contract/response-check.js';
import { SchemaValidator } from '../src/contract/schema-validator.js';

// The sandbox checks each webhook body it sends against the event's schema, found in the generated operation table.
const contract = loadPaymentsContract();
const validator = new SchemaValidator(contract.document);

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
});
