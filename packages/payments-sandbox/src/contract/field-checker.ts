import type { SensitiveKind } from '../generated/sensitive.js';
import type { FieldProblem } from '../rules/api-error.js';

export type { FieldProblem };

/**
 * What the request and answer checks ask of a contract's checker: the field problems of a value at a schema pointer.
 * Its one implementation is `ContractChecker` (contract-checker.ts), on the generated validators of
 * @paykit/contract-validation; this file keeps that internal package out of the sandbox's declarations.
 */
export interface FieldChecker {
  /** Problems of `value` against the schema at `pointer` (empty when valid); `bodyKind`: the whole value is marked. */
  check(pointer: string, value: unknown, bodyKind?: SensitiveKind): FieldProblem[];
}
