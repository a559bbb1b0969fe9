import type { Difference } from '../difference.js';

/**
 * `allowed` ships within the version; `breaking` needs a new major version of the API (or a reviewed acknowledgement);
 * `client-major` keeps the API version but needs a major changeset of the client package.
 */
export type Verdict = 'allowed' | 'breaking' | 'client-major';

/** One entry of the rule book: a name printed in the gate's output, its verdict, and the differences it covers. */
export interface Rule {
  name: string;
  verdict: Verdict;
  /** What the rule means, in one sentence (shown by `paykit-compat rules` and in the README). */
  meaning: string;
  matches(difference: Difference): boolean;
}

export const isRequest = (d: Difference): boolean => d.direction === 'request';
export const isResponse = (d: Difference): boolean => d.direction === 'response';
export const isSuccessStatus = (status: string | undefined): boolean => /^2(\d\d|XX)$/i.test(status ?? '');
export const isClientErrorStatus = (status: string | undefined): boolean => /^4(\d\d|XX)$/i.test(status ?? '');
