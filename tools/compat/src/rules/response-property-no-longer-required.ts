import { isResponse, type Rule } from './rule.js';

export const responsePropertyNoLongerRequired: Rule = {
  name: 'response-property-no-longer-required',
  verdict: 'breaking',
  meaning: 'A response property that was always present may now be missing (required removed, minOccurs 1 to 0).',
  matches: (d) => isResponse(d) && d.kind === 'property-required-changed' && d.required === false,
};
