import type { Rule } from './rule.js';

/**
 * Reference, Versioning: "changed order of properties". JSON members are unordered; an XSD sequence is ordered,
 * so a reordered sequence is only tolerable where the client reads it (responses).
 */
export const propertyOrderChanged: Rule = {
  name: 'property-order-changed',
  verdict: 'allowed',
  meaning: 'Properties are listed in another order (in an XSD sequence: responses only).',
  matches: (d) => d.kind === 'property-order-changed' && (d.ordered !== true || d.direction === 'response'),
};
