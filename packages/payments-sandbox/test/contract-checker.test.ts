import { describe, expect, it } from 'vitest';
import { ContractChecker } from '../src/contract/contract-checker.js';
import { paymentsOperationTable } from '../src/generated/operations.js';

// The sandbox checks the payments contract with @paykit/contract-validation's generated validators only: every
// schema pointer its operation table can hand the checker has a compiled schema, so no check needs a spec at run time.
const checker = new ContractChecker();
const isJson = (media: string) => /^application\/(?:[\w.-]+\+)?json$/.test(media);
/** The pointers the sandbox checks: parameters' schemas and the schemas of JSON bodies, asked and answered. */
const operations = Object.values(paymentsOperationTable.operations);
const checked = new Set(
  operations.flatMap((operation) => [
    ...operation.parameters.map((parameter) => parameter.schema),
    ...Object.entries(operation.requestBody?.content ?? {}).filter(([media]) => isJson(media)).map(([, pointer]) => pointer),
    ...Object.values(operation.responses).flatMap((answer) => Object.entries(answer.content).filter(([media]) => isJson(media)).map(([, pointer]) => pointer)),
  ]).filter((pointer): pointer is string => typeof pointer === 'string'),
);
const textOnly = operations.flatMap((operation) => Object.values(operation.responses).flatMap((answer) => Object.entries(answer.content).filter(([media]) => !isJson(media)).map(([, pointer]) => pointer)));

describe('the payments contract on the shared validator', () => {
  it('has a compiled schema for every pointer of a parameter or a JSON body of the payments operations', () => {
    expect(checked.size).toBeGreaterThan(30);
    expect([...checked].filter((pointer) => !checker.covers(pointer))).toEqual([]);
  });

  it('has none for the text answers (CSV reports), which the sandbox does not check as JSON', () => {
    expect(textOnly).toEqual(expect.arrayContaining(['#/components/schemas/TransactionReportCsv', '#/components/schemas/PaymentFileReport']));
    expect(textOnly.filter((pointer) => pointer && !checked.has(pointer) && checker.covers(pointer))).toEqual([]);
  });

  it('refuses a pointer the generated table does not have rather than passing the value unchecked', () => {
    expect(() => checker.check('#/components/schemas/NoSuchSchema', {})).toThrow(/no compiled schema for #\/components\/schemas\/NoSuchSchema/);
  });
});
