import { isSuccessStatus, type Rule } from './rule.js';

export const removedSuccessResponse: Rule = {
  name: 'removed-success-response',
  verdict: 'breaking',
  meaning: 'A 2xx response, or a media type of one, is no longer returned.',
  matches: (d) =>
    isSuccessStatus(d.status) &&
    (d.kind === 'response-removed' || (d.kind === 'media-type-removed' && d.direction === 'response')),
};
