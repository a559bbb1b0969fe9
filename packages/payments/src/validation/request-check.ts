import type { PreparedRequest, RequestCheck } from '../client/core.js';
import { inputError, type FieldError } from '../errors/payments-error.js';
import type { ValidationData } from '../generated/validation.js';
import { normaliseAliasAddress, type AliasAddressOptions } from './alias-address.js';
import { checkValue } from './schema-check.js';

export type RequestCheckOptions = AliasAddressOptions;

function checkParameters(
  data: ValidationData,
  where: string,
  schemas: Readonly<Record<string, number>> | undefined,
  required: readonly string[] | undefined,
  values: Record<string, unknown> | undefined,
  problems: FieldError[],
): void {
  for (const name of required ?? []) {
    if (values?.[name] === undefined) problems.push({ fieldName: `${where} ${name}`, messages: ['is required'] });
  }
  for (const [name, value] of Object.entries(values ?? {})) {
    const index = schemas?.[name];
    // Path parameters arrive as numbers sometimes; they travel as text, so they are checked as text.
    if (index !== undefined && value !== undefined) {
      checkValue(data.schemas, index, where === 'path' ? String(value) : value, `${where} ${name}`, problems);
    }
  }
}

/**
 * A request check driven by generated validation data: every parameter and JSON body is checked against the spec's
 * schemas before anything is sent, and alias addresses are normalised first.
 */
export function createRequestCheck(data: ValidationData, options: RequestCheckOptions = {}): RequestCheck {
  return (operationId: string, request: PreparedRequest): PreparedRequest => {
    const checks = data.operations[operationId];
    if (!checks) return request;
    const body = normaliseAliasAddress(request.body, options);
    const problems: FieldError[] = [];
    checkParameters(data, 'path', checks.p, checks.pr, request.path, problems);
    checkParameters(data, 'query', checks.q, checks.qr, request.query, problems);
    checkParameters(data, 'header', checks.h, undefined, request.header, problems);
    if (checks.b !== undefined && body !== undefined) checkValue(data.schemas, checks.b, body, '', problems);
    if (problems.length) {
      const summary = problems.map((p) => `${p.fieldName} ${(p.messages ?? []).join(', ')}`).join('; ');
      throw inputError(`${operationId}: the request does not match the spec: ${summary}.`, problems);
    }
    return { ...request, body };
  };
}
