import { isResponse, isSuccessStatus, type Rule } from './rule.js';

/**
 * Issue 13's answer: a new 2xx status is not on the reference's list, and callers' code branches on the statuses it
 * was given, so an unknown success would be taken for a failure. Breaking unless a changeset acknowledges it.
 */
export const newSuccessResponse: Rule = {
  name: 'new-success-response',
  verdict: 'breaking',
  meaning: 'A new 2xx response on an operation: callers do not handle the new status.',
  matches: (d) => d.kind === 'response-added' && isResponse(d) && isSuccessStatus(d.status),
};
