import type { Rule } from './rule.js';

/**
 * Anything no other rule covers. The reference lists what may change without a new version; everything else is
 * treated as breaking until someone writes a rule for it, so the gate never lets an unjudged change through.
 */
export const unclassifiedChange: Rule = {
  name: 'unclassified-change',
  verdict: 'breaking',
  meaning: 'A difference outside every other rule (e.g. a new 5xx response, a changed callback or an unmodelled keyword): breaking until a rule is written.',
  matches: () => true,
};
