import { isRequest, type Rule } from './rule.js';

/** Issue 13's answer: a new value the server accepts changes nothing for a client that never sends it. */
export const newRequestEnumValue: Rule = {
  name: 'new-request-enum-value',
  verdict: 'allowed',
  meaning: 'A new value in a request enum (or XSD enumeration): clients only send the values they know.',
  matches: (d) => isRequest(d) && d.kind === 'enum-values-added',
};
