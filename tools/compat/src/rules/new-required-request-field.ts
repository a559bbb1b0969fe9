import { isRequest, type Rule } from './rule.js';

export const newRequiredRequestField: Rule = {
  name: 'new-required-request-field',
  verdict: 'breaking',
  meaning: 'A request field, parameter or body is new and required, or was optional and is now required.',
  matches: (d) =>
    isRequest(d) && d.required === true && (d.kind === 'property-added' || d.kind === 'property-required-changed'),
};
