import type { Rule } from './rule.js';

/** Reference, Versioning: "new HTTP verbs". */
export const newHttpVerb: Rule = {
  name: 'new-http-verb',
  verdict: 'allowed',
  meaning: 'A new operation (HTTP verb) on a path that already existed.',
  matches: (d) => d.kind === 'operation-added',
};
