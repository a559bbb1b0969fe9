import { paymentsSandboxControlContract } from '@paykit/contract-validation';
import { describe, expect, it, vi } from 'vitest';
import { readContract, type OpenApiDocument } from '../src/contract/contract.js';
import { PaymentsContractChecker } from '../src/contract/contract-checker.js';
import { SchemaValidator } from '../src/contract/schema-validator.js';
import { controlDocument } from '../src/generated/control/document.js';
import { controlOperationTable } from '../src/generated/control/operations.js';
import { paymentsSandboxControlSensitive } from '../src/generated/sensitive.js';

// The control interface's checks run on the toolkit's one validator (@paykit/contract-validation's table of the
// control contract), with the problems the sandbox's own ajv wrapper gave before (issue 35, item 2).
const contract = readContract(controlOperationTable, controlDocument as OpenApiDocument, '');
const checker = new PaymentsContractChecker(contract.document, paymentsSandboxControlSensitive, paymentsSandboxControlContract);
const before = new SchemaValidator(contract.document, paymentsSandboxControlSensitive);
/** Every schema pointer of the control operation table whose media is JSON (the event stream's is not checked as JSON). */
const pointers = [...new Set(JSON.stringify(controlOperationTable).match(/#\/[^"]+/g))].filter((pointer) => pointer !== '#/components/schemas/SandboxEvent');

describe('the control contract on the shared validator', () => {
  it('checks every JSON schema of the control operations without the ajv wrapper', () => {
    expect(pointers.length).toBeGreaterThan(40);
    const fallback = vi.spyOn(SchemaValidator.prototype, 'check');
    try {
      for (const pointer of pointers) checker.check(pointer, { unexpected: [1] });
      expect(fallback).not.toHaveBeenCalled();
    } finally {
      fallback.mockRestore();
    }
  });

  it.each([
    { what: 'a missing field', body: {} },
    { what: 'a field of the wrong type', body: { ms: '5' } },
    { what: 'a field the contract does not have', body: { ms: 5, extra: 1 } },
  ])('names the problems of $what as before', ({ body }) => {
    const problems = checker.check('#/components/schemas/ClockAdvance', body);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems).toEqual(before.check('#/components/schemas/ClockAdvance', body));
  });
});
