import { isRequest, type Rule } from './rule.js';

export const removedRequestProperty: Rule = {
  name: 'removed-request-property',
  verdict: 'breaking',
  meaning: 'A request parameter, body property or body that clients send is no longer in the contract.',
  matches: (d) => isRequest(d) && d.kind === 'property-removed',
};
