import { isResponse, type Rule } from './rule.js';

/** Reference, Versioning: "new response properties" (also a new response header or XSD element). */
export const newResponseProperty: Rule = {
  name: 'new-response-property',
  verdict: 'allowed',
  meaning: 'A new property in a response body or webhook payload, a new response header, or a new XSD element in a response.',
  matches: (d) => isResponse(d) && d.kind === 'property-added',
};
