import type { Rule } from './rule.js';

/** Reference, Versioning: "changed wording of user-facing error messages"; text never changes what is on the wire. */
export const rewordedDocumentation: Rule = {
  name: 'reworded-documentation',
  verdict: 'allowed',
  meaning: 'Descriptions, summaries, titles, examples, tags or deprecation notes changed: documentation only.',
  matches: (d) => d.kind === 'documentation-changed',
};
