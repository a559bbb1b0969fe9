import type { Rule } from './rule.js';

/** The server URL path (e.g. `/rest/v1`) carries the major version: any other change to it moves every client. */
export const changedBasePath: Rule = {
  name: 'changed-base-path',
  verdict: 'breaking',
  meaning: 'The base path of the server URL (or the SOAP namespace/address) changed; only a new major version may do that.',
  matches: (d) => d.kind === 'base-path-changed',
};
