import type { PreparedRequest, RequestCheck } from '../client/core.js';
import { inputError, type FieldError } from '../errors/payments-error.js';
import type { OperationChecks, ValidationData } from '../generated/validation.js';
import { normaliseAliasAddress, type AliasAddressOptions } from './alias-address.js';
import { check, rulesOf, type Rules } from './schema-check.js';

export type RequestCheckOptions = AliasAddressOptions;

type Location = 'path' | 'query' | 'header';

/** One parameter the spec describes: where it goes, its schema node (-1 when it has none) and the field name shown. */
interface ParameterRule {
  readonly location: Location;
  readonly name: string;
  readonly field: string;
  readonly rule: number;
  readonly required: boolean;
}

function parameterRules(
  location: Location,
  schemas: Readonly<Record<string, number>> | undefined,
  required: readonly string[] | undefined,
): ParameterRule[] {
  const names = new Set([...Object.keys(schemas ?? {}), ...(required ?? [])]);
  return [...names].map((name) => ({
    location,
    name,
    field: `${location} ${name}`,
    rule: schemas && Object.hasOwn(schemas, name) ? schemas[name]! : -1,
    required: required?.includes(name) ?? false,
  }));
}

/**
 * One operation's checks in a fixed shape, made on its first call: the parameters the spec describes as one list,
 * so that a call reads the few values the spec knows rather than walking the caller's objects, and nothing is
 * allocated for a parameter that passes. Parameters the spec does not describe travel unchecked: the service may add
 * optional ones within v1. Header parameters the spec requires (the Idempotency-Key) are the client's to add, so only
 * their values are checked.
 */
class OperationRules {
  declare readonly parameters: readonly ParameterRule[];
  declare readonly body: number | undefined;

  constructor(checks: OperationChecks) {
    this.parameters = [
      // Every path parameter is required.
      ...parameterRules('path', checks.p, Object.keys(checks.p ?? {})),
      ...parameterRules('query', checks.q, checks.qr),
      ...parameterRules('header', checks.h, undefined),
    ];
    this.body = checks.b;
  }
}

function checkParameters(rules: Rules, parameters: readonly ParameterRule[], request: PreparedRequest, problems: FieldError[]): void {
  for (const parameter of parameters) {
    const { location } = parameter;
    const values = location === 'path' ? request.path : location === 'query' ? request.query : request.header;
    const value = values?.[parameter.name];
    if (value === undefined) {
      if (parameter.required) problems.push({ fieldName: parameter.field, messages: ['is required'] });
    } else if (parameter.rule >= 0) {
      // Path parameters arrive as numbers sometimes; they travel as text, so they are checked as text.
      check(rules, parameter.rule, location === 'path' ? String(value) : value, parameter.field, problems);
    }
  }
}

/**
 * A request check driven by generated validation data: every parameter and JSON body is checked against the spec's
 * schemas before anything is sent, alias addresses are normalised first, and amounts are rounded to their decimal
 * places when they are only off by floating-point error (the caller's objects are left as they are).
 */
export function createRequestCheck(data: ValidationData, options: RequestCheckOptions = {}): RequestCheck {
  const rules = rulesOf(data.schemas);
  const operations = new Map<string, OperationRules | null>();
  return (operationId: string, request: PreparedRequest): PreparedRequest => {
    let checks = operations.get(operationId);
    if (checks === undefined) {
      const generated = Object.hasOwn(data.operations, operationId) ? data.operations[operationId] : undefined;
      operations.set(operationId, (checks = generated ? new OperationRules(generated) : null));
    }
    if (!checks) return request;
    let body = request.body === undefined ? undefined : normaliseAliasAddress(request.body, options);
    const problems: FieldError[] = [];
    checkParameters(rules, checks.parameters, request, problems);
    // The body to send: amounts within floating-point error of their decimal places come back rounded.
    if (checks.body !== undefined && body !== undefined) body = check(rules, checks.body, body, '', problems);
    if (problems.length) {
      const summary = problems.map((p) => `${p.fieldName} ${(p.messages ?? []).join(', ')}`).join('; ');
      throw inputError(`${operationId}: the request does not match the spec: ${summary}.`, problems);
    }
    return body === request.body ? request : { ...request, body };
  };
}
