import { isResponse, type Rule } from './rule.js';

export const removedResponseEnumValue: Rule = {
  name: 'removed-response-enum-value',
  verdict: 'breaking',
  meaning: 'A value of a response enum is no longer sent.',
  matches: (d) => isResponse(d) && d.kind === 'enum-values-removed',
};
