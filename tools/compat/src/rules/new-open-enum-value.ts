import { isResponse, type Rule } from './rule.js';

/** Reference, Versioning and the card type field: values "may be added later" where the spec says the enum is open. */
export const newOpenEnumValue: Rule = {
  name: 'new-open-enum-value',
  verdict: 'allowed',
  meaning: 'A new value in a response enum marked open (x-paykit-open-enum: [known values]), such as the card type.',
  matches: (d) => isResponse(d) && d.kind === 'enum-values-added' && d.open === true,
};
