import type { Rule } from './rule.js';

export const changedSecurity: Rule = {
  name: 'changed-security',
  verdict: 'breaking',
  meaning: 'The security requirement of an operation (or the scheme it names) changed: clients send other credentials.',
  matches: (d) => d.kind === 'security-changed',
};
