import { pageParameter } from '../rules/links.js';

/**
 * The filter of the searches whose query parameters the reference does not publish (`/transactions/for-reference-number`
 * and the like, mandate agreements): every query parameter but the sandbox's own page parameter is a criterion on
 * the top-level field of the same name, compared as text. An item without that field, or with a null or an object
 * there, does not match: a search by a value no item has is an empty page, never the whole list.
 */
export function matchesQuery(fields: Record<string, unknown>, query: URLSearchParams): boolean {
  for (const [name, value] of query) {
    if (name !== pageParameter && !matchesValue(fields[name], value)) return false;
  }
  return true;
}

/** Whether a field meets one criterion of the query. */
export function matchesValue(field: unknown, value: string): boolean {
  return field !== undefined && field !== null && typeof field !== 'object' && String(field) === value;
}
