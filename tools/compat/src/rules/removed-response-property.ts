import { isResponse, type Rule } from './rule.js';

export const removedResponseProperty: Rule = {
  name: 'removed-response-property',
  verdict: 'breaking',
  meaning: 'A property, header or XSD element/attribute that clients receive is no longer in the contract.',
  matches: (d) => isResponse(d) && d.kind === 'property-removed',
};
