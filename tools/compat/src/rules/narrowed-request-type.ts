import { isRequest, type Rule } from './rule.js';

export const narrowedRequestType: Rule = {
  name: 'narrowed-request-type',
  verdict: 'breaking',
  meaning:
    'A request value accepts less than before: changed type, lower maximum/maxLength, higher minimum/minLength, new or changed pattern, new enum, removed enum value, removed variant or media type.',
  matches: (d) =>
    isRequest(d) &&
    (((d.kind === 'type-changed' || d.kind === 'constraint-changed') && d.effect !== 'wider') ||
      d.kind === 'enum-values-removed' ||
      d.kind === 'variant-removed' ||
      d.kind === 'media-type-removed'),
};
