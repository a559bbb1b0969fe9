import { isDeepStrictEqual } from 'node:util';
import type { ClientOutcome } from './payments-invoker.js';

/**
 * "The client's result under a mutation equals its result without it, modulo the mutated values", made precise.
 * With B the client's outcome on the unmutated answer, M its outcome on the mutated answer, D the mutated body as
 * delivered on the wire and `restore` the inverse of the mutation (taking back the edits E it made):
 *
 * 1. same outcome: both succeed with the same status, or both fail with the same error kind and status (no new
 *    exception, no success turned into a failure);
 * 2. no lost data: the body the client hands back deep-equals D, unknown properties included (object key order is
 *    not significant in JSON, so it is ignored);
 * 3. modulo the mutated values: restoring the client's body (taking E back) gives exactly B's body;
 * 4. derived values follow the body: a page's items are D's `data` and whether a next page exists is unchanged
 *    (unknown link relations must not create or hide a next page); an error's messages and field errors are D's.
 *
 * Returns every discrepancy in words; an empty list means the client tolerated the mutation.
 */
export function compareUnderMutation(baseline: ClientOutcome, mutated: ClientOutcome, delivered: unknown, restore: (body: unknown) => unknown): string[] {
  const problems: string[] = [];
  if (baseline.outcome !== mutated.outcome) {
    return [`outcome changed from ${describe(baseline)} to ${describe(mutated)}`];
  }
  if (baseline.status !== mutated.status) problems.push(`status changed from ${baseline.status} to ${mutated.status}`);
  const body = mutated.outcome === 'success' ? mutated.data : mutated.body;
  const baselineBody = baseline.outcome === 'success' ? baseline.data : baseline.body;
  if (!isDeepStrictEqual(body, delivered)) problems.push('the client did not return the delivered body as it was (data lost or altered)');
  let restored: unknown;
  try {
    restored = restore(body);
  } catch (error) {
    problems.push(`the mutated values are not where the service put them: ${String(error)}`);
  }
  if (restored !== undefined && !isDeepStrictEqual(restored, baselineBody)) {
    problems.push('without the mutated values, the result differs from the unmutated result');
  }
  if (mutated.outcome === 'success' && baseline.outcome === 'success') {
    if (Boolean(mutated.page) !== Boolean(baseline.page)) problems.push('the result is a page in one run only');
    if (mutated.page && baseline.page) {
      const items = (delivered as { data?: unknown } | null)?.data ?? [];
      if (!isDeepStrictEqual(mutated.page.items, items)) problems.push("the page's items are not the delivered data");
      if (mutated.page.hasNextPage !== baseline.page.hasNextPage) {
        problems.push(`hasNextPage changed from ${baseline.page.hasNextPage} to ${mutated.page.hasNextPage}`);
      }
    }
  }
  if (mutated.outcome === 'error' && baseline.outcome === 'error') {
    if (mutated.kind !== baseline.kind) problems.push(`error kind changed from ${baseline.kind} to ${mutated.kind}`);
    const error = (delivered ?? {}) as { customerMessage?: unknown; developerMessage?: unknown; errors?: unknown };
    if (mutated.customerMessage !== error.customerMessage) problems.push('customerMessage is not the delivered one');
    if (mutated.developerMessage !== error.developerMessage) problems.push('developerMessage is not the delivered one');
    if (!isDeepStrictEqual(mutated.fieldErrors, error.errors ?? [])) problems.push('fieldErrors are not the delivered field errors');
  }
  return problems;
}

function describe(outcome: ClientOutcome): string {
  return outcome.outcome === 'success' ? `success ${outcome.status}` : `${outcome.kind} error ${outcome.status ?? ''}`.trim();
}
