import type { MatchedOperation } from './operations.js';
import { ruleNames, type Violation } from './violation.js';

/** The media types the spec gives an error status of the operation (`500`, else `5XX`, else `default`). */
function errorMediaTypes(operation: MatchedOperation, status: number): readonly string[] | undefined {
  const errors = operation.spec.errors;
  if (!errors) return undefined;
  return errors[String(status)] ?? errors[`${String(status)[0]}XX`] ?? errors.default;
}

/**
 * What Prism's proxy mode does not check in an answer: an error status whose body is missing. Prism validates a
 * body only when there is one, so a 500 that comes empty where the spec promises the error body passes it.
 */
export function answerViolations(operation: MatchedOperation, status: number, body: Buffer): Violation[] {
  if (status < 400 || body.length > 0) return [];
  const media = errorMediaTypes(operation, status);
  if (!media?.length) return [];
  return [
    {
      rule: ruleNames.errorBody,
      side: 'answer',
      operation: operation.id,
      location: 'body',
      message: `a ${status} answer must carry the error body (${media.join(', ')}); it came empty`,
    },
  ];
}
