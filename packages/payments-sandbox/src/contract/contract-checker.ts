import { ContractValidator, paymentsContract, type ContractTable, type OperationEntry, type SchemaEntry } from '@paykit/contract-validation';
import type { SensitiveKind, SensitiveTable } from '../generated/sensitive.js';
import { paymentsSensitive } from '../generated/sensitive.js';
import { describeKept, kindOfField } from '../rules/sensitive.js';
import type { FieldChecker, FieldProblem } from './field-checker.js';

const isContainer = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Every compiled schema of a contract table, by the pointer the sandbox's operation table names it with. */
function schemasBySource(table: ContractTable): Map<string, SchemaEntry> {
  const found = new Map<string, SchemaEntry>();
  const add = (schema: SchemaEntry | undefined) => schema && found.set(schema.source, schema);
  for (const operation of table.operations as readonly OperationEntry[]) {
    for (const parameter of operation.parameters) add(parameter.schema);
    for (const media of operation.requestBody?.content ?? []) add(media.schema);
    for (const answer of Object.values(operation.responses)) {
      for (const media of answer.content) add(media.schema);
      for (const header of Object.values(answer.headers)) add(header.schema);
    }
  }
  for (const webhook of Object.values(table.webhooks)) for (const media of webhook.requestBody?.content ?? []) add(media.schema);
  return found;
}

/**
 * A contract's checks with the one validator of the toolkit (@paykit/contract-validation: schemas compiled at
 * generation time, shared with the contract tests and the proxy), inlined at build: nothing reads a spec for schemas
 * at run time. Its problems carry no value; the sandbox adds the value as it keeps it (masked where the contract marks
 * it), one field error per field, webhook bodies included.
 *
 * The generated table compiles every schema of a JSON body, parameter and header. The sandbox checks nothing else (a
 * non-JSON body such as the control contract's event stream is not checked as JSON), so a pointer the table lacks is
 * a fault of the sandbox, not of the request: it throws rather than passing the value unchecked.
 */
export class ContractChecker implements FieldChecker {
  private readonly shared: ContractValidator;
  private readonly schemas: Map<string, SchemaEntry>;

  /** `table`: the contract's generated table in @paykit/contract-validation (the payments contract, or the control one). */
  constructor(private readonly sensitive: SensitiveTable = paymentsSensitive, table: ContractTable = paymentsContract) {
    this.shared = new ContractValidator(table);
    this.schemas = schemasBySource(table);
  }

  /** Whether the table has a compiled schema for `pointer`. */
  covers(pointer: string): boolean {
    return this.schemas.has(pointer);
  }

  check(pointer: string, value: unknown, bodyKind?: SensitiveKind): FieldProblem[] {
    const schema = this.schemas.get(pointer);
    if (!schema) throw new Error(`no compiled schema for ${pointer} in the contract's generated table (@paykit/contract-validation): regenerate it (pnpm generate)`);
    const byField = new Map<string, FieldProblem>();
    for (const problem of this.shared.checkSchema(schema, value, 'request', 'body')) {
      // `body.items[0].amount` -> the field error's `items.0.amount`, as the sandbox has always named fields.
      const segments = problem.location.replace(/^body/, '').replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
      const fieldName = segments.join('.');
      const at = segments.reduce<unknown>((node, key) => (isContainer(node) ? node[key] : undefined), value);
      const field = byField.get(fieldName) ?? {
        fieldName,
        fieldValue: at === undefined ? '' : describeKept(at, bodyKind ?? kindOfField(fieldName, this.sensitive), this.sensitive),
        messages: [],
      };
      const message = problem.rule === 'openapi:additionalProperties' ? 'is not allowed here' : problem.message;
      if (!field.messages.includes(message)) field.messages.push(message);
      byField.set(fieldName, field);
    }
    return [...byField.values()];
  }
}
