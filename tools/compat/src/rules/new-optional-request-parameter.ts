import { isRequest, type Rule } from './rule.js';

/** Reference, Versioning: "new optional request parameters". */
export const newOptionalRequestParameter: Rule = {
  name: 'new-optional-request-parameter',
  verdict: 'allowed',
  meaning: 'A new optional query/header/path/cookie parameter, request body property or request body.',
  matches: (d) => isRequest(d) && d.kind === 'property-added' && d.required !== true,
};
