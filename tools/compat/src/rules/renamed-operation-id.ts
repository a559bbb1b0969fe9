import type { Rule } from './rule.js';

/**
 * Issue 13's answer: the operationId never reaches the wire, so the API keeps its version, but the generated client
 * method takes its name from it. The client package must release a major version instead.
 */
export const renamedOperationId: Rule = {
  name: 'renamed-operation-id',
  verdict: 'client-major',
  meaning: 'An operationId changed: nothing changes on the wire, but a generated method is renamed, so the client package needs a major changeset (not a new API version).',
  matches: (d) => d.kind === 'other-changed' && d.keyword === 'operationId',
};
