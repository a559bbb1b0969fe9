import type { Rule } from './rule.js';

export const removedOperation: Rule = {
  name: 'removed-operation',
  verdict: 'breaking',
  meaning: 'An operation (HTTP verb of a path, or SOAP operation) disappeared.',
  matches: (d) => d.kind === 'operation-removed',
};
