import type { Rule } from './rule.js';

export const loweredMaxOccurs: Rule = {
  name: 'lowered-max-occurs',
  verdict: 'breaking',
  meaning: 'An XSD element may now occur fewer times (maxOccurs lowered), in a request or a response.',
  matches: (d) => d.kind === 'constraint-changed' && d.keyword === 'maxOccurs' && d.effect === 'narrower',
};
