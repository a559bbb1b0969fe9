import type { Rule } from './rule.js';

export const removedPath: Rule = {
  name: 'removed-path',
  verdict: 'breaking',
  meaning: 'A path (resource) or webhook disappeared with all its operations.',
  matches: (d) => d.kind === 'path-removed',
};
