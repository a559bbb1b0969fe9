import type { Rule } from './rule.js';

/** Reference, Versioning: "new resources". */
export const newResource: Rule = {
  name: 'new-resource',
  verdict: 'allowed',
  meaning: 'A new path (resource), webhook or SOAP operation; existing clients never call it.',
  matches: (d) => d.kind === 'path-added',
};
