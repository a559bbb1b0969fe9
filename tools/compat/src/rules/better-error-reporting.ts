import { isClientErrorStatus, type Rule } from './rule.js';

/** Reference, Versioning: "better error reporting for invalid requests". */
export const betterErrorReporting: Rule = {
  name: 'better-error-reporting',
  verdict: 'allowed',
  meaning: 'A new 4xx response on an operation: an invalid request is reported more precisely.',
  matches: (d) => d.kind === 'response-added' && isClientErrorStatus(d.status),
};
