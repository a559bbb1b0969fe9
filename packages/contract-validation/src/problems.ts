import type { SchemaError } from './schema-validator.js';

/** Which way a message was going. */
export type Side = 'request' | 'answer';

/**
 * One place where a message breaks the contract. No value of the message is ever copied in (it may be a card number
 * or a key): a problem names where and which rule, and what the contract allows.
 */
export interface Problem {
  /**
   * The rule broken: `openapi:<keyword>` for a JSON-Schema keyword (`openapi:required`, `openapi:pattern`...) or an
   * OpenAPI fact (`openapi:status`, `openapi:content-type`, `openapi:body`, `openapi:security`), `decimal-places`
   * (`x-paykit-decimal-places`) and `error-body` (an error answer without the body its status declares).
   */
  readonly rule: string;
  readonly side: Side;
  /** Where: `body`, `body.cardNumber`, `body.items[0].amount`, `query.page`, `header.Idempotency-Key`, `status`. */
  readonly location: string;
  readonly message: string;
  /** Where the rule comes from: a JSON pointer into the bundled spec (`#/components/schemas/Transaction/required`). */
  readonly source: string;
}

/** `body` + `/items/0/amount` -> `body.items[0].amount` (`~1` and `~0` unescaped). */
export function locationOf(prefix: string, instancePath: string, extra?: string): string {
  let location = prefix;
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/');
  if (extra !== undefined) segments.push(extra);
  for (const raw of segments) {
    const segment = raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
    location += /^\d+$/.test(segment) ? `[${segment}]` : location ? `.${segment}` : segment;
  }
  return location;
}

const list = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

/** A message that says what the contract allows, without the value that broke it. */
function messageOf(error: SchemaError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not in the contract (no additional properties allowed here)';
    case 'enum':
      return `must be one of ${list(params.allowedValues as unknown[])}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'false schema':
      return 'is not allowed here';
    default:
      return error.message ?? 'is invalid';
  }
}

/** `CreditCardTokenRequest#/properties/cvn/pattern` -> `#/components/schemas/CreditCardTokenRequest/properties/cvn/pattern`. */
function sourceOf(schemaPath: string, sources: Readonly<Record<string, string>>): string {
  const hash = schemaPath.indexOf('#');
  const root = sources[schemaPath.slice(0, hash)];
  return root === undefined ? schemaPath : `${root}${schemaPath.slice(hash + 1)}`;
}

/** Keywords that only say that their branches failed: the branches' own errors say why. */
const combinators = new Set(['if', 'oneOf', 'anyOf', 'allOf', 'not']);

/** ajv's errors as problems, repeats removed, combinators' summaries dropped when their branches speak. */
export function schemaProblems(errors: readonly SchemaError[], side: Side, prefix: string, sources: Readonly<Record<string, string>>): Problem[] {
  const specific = errors.filter((error) => !combinators.has(error.keyword));
  const kept = specific.length > 0 ? specific : errors.filter((error) => error.keyword !== 'if');
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of kept) {
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const location = locationOf(prefix, error.instancePath, params.missingProperty ?? params.additionalProperty);
    const rule = error.keyword === 'x-paykit-decimal-places' ? 'decimal-places' : `openapi:${error.keyword}`;
    const key = `${rule} ${location}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ rule, side, location, message: messageOf(error), source: sourceOf(error.schemaPath, sources) });
  }
  return problems;
}
