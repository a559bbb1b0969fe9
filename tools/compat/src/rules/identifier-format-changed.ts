import type { Rule } from './rule.js';

const ID_LIMIT = 255;
const FORMAT_KEYWORDS = new Set(['maxLength', 'minLength', 'pattern', 'format']);

/** Reference, Versioning: "changed length or format of IDs (within 255 characters)". */
export const identifierFormatChanged: Rule = {
  name: 'identifier-format-changed',
  verdict: 'allowed',
  meaning: `The length or format of an identifier changed and it still fits in ${ID_LIMIT} characters.`,
  matches: (d) =>
    d.kind === 'constraint-changed' &&
    d.identifier === true &&
    FORMAT_KEYWORDS.has(d.keyword ?? '') &&
    d.maxLengthAfter !== undefined &&
    d.maxLengthAfter <= ID_LIMIT,
};
