import { isResponse, type Rule } from './rule.js';

export const changedResponseType: Rule = {
  name: 'changed-response-type',
  verdict: 'breaking',
  meaning: 'The type (or format) of a value clients receive changed.',
  matches: (d) =>
    isResponse(d) && (d.kind === 'type-changed' || (d.kind === 'constraint-changed' && d.keyword === 'format')),
};
