import { matchPath, readContract } from '../../src/contract/contract.js';
import { paymentsSandboxControlContract } from '@paykit/contract-validation';
import { ContractChecker } from '../../src/contract/contract-checker.js';
import { paymentsSandboxControlSensitive } from '../../src/generated/sensitive.js';
import { controlOperationTable } from '../../src/generated/control/operations.js';
import { createSandboxControl, type PaymentsSandbox, type SandboxControl } from '../../src/index.js';

export const controlContract = readContract(controlOperationTable, '');
const validator = new ContractChecker(paymentsSandboxControlSensitive, paymentsSandboxControlContract);

/** What the contract says of one answer: the problems of its body against the schema of its status (none when valid). */
export function answerProblems(method: string, url: string, status: number, text: string): string[] {
  const path = new URL(url).pathname.replace(/^\/__sandbox/, '');
  const operation = matchPath(controlContract, path)?.path.operations.get(method);
  if (!operation) return [`${method} ${path} is not an operation of the contract`];
  const response = operation.responses.get(String(status));
  if (!response) return [`${operation.operationId} answered ${status}, which the contract does not declare`];
  const pointer = response.media.get('application/json');
  if (pointer === undefined) return text === '' ? [] : [`${operation.operationId} ${status} has a body the contract does not declare`];
  return validator.check(pointer, JSON.parse(text)).map((p) => `${operation.operationId} ${status}: ${p.fieldName} ${p.messages.join(', ')}`);
}

/** A control client whose every answer is checked against the control contract; the problems go to `problems`. */
export function checkedControl(sandbox: PaymentsSandbox, problems: string[]): SandboxControl {
  return createSandboxControl(sandbox.origin, {
    token: sandbox.controlToken,
    fetch: async (request) => {
      const response = await fetch(request);
      problems.push(...answerProblems(request.method, request.url, response.status, await response.clone().text()));
      return response;
    },
  });
}
