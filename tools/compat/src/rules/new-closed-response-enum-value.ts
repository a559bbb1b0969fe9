import { isResponse, type Rule } from './rule.js';

export const newClosedResponseEnumValue: Rule = {
  name: 'new-closed-response-enum-value',
  verdict: 'breaking',
  meaning: 'A new value in a response enum that is not marked open: clients were promised the list was complete.',
  matches: (d) => isResponse(d) && d.kind === 'enum-values-added' && d.open !== true,
};
