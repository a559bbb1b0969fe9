import { isRequest, type Rule } from './rule.js';

/**
 * Issue 13's answer: a request value that accepts more than before cannot break a client, which only sends what it
 * knows. Its mirror image is `narrowed-request-type`; `wider` is the effect the comparers compute.
 */
export const widenedRequestType: Rule = {
  name: 'widened-request-type',
  verdict: 'allowed',
  meaning:
    'A request value accepts more than before: wider type, higher maximum/maxLength/maxItems, lower minimum/minLength, removed pattern or enum restriction, opened additionalProperties, new oneOf/anyOf variant or discriminator mapping, new request media type.',
  matches: (d) =>
    isRequest(d) &&
    (((d.kind === 'type-changed' || d.kind === 'constraint-changed') && d.effect === 'wider') ||
      d.kind === 'variant-added' ||
      d.kind === 'media-type-added'),
};
