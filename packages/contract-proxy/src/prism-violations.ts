import type { Side, Violation } from './violation.js';

/** One entry of Prism's `sl-violations` header. */
interface PrismViolation {
  location?: unknown;
  severity?: unknown;
  code?: unknown;
  message?: unknown;
}

const sides: Record<string, Side> = { request: 'request', response: 'answer' };

/**
 * The violations Prism's proxy mode found in one exchange, read from the `sl-violations` header it adds to its
 * answer (a JSON array; Prism cuts it short with a `Too many violations!` prefix past 8 KiB). Hints (severity below
 * Warning) are left out: they are not contract breaks.
 */
export function prismViolations(header: string | undefined, operation: string): Violation[] {
  if (!header) return [];
  let entries: PrismViolation[];
  try {
    entries = JSON.parse(header) as PrismViolation[];
  } catch {
    return [{ rule: 'openapi:too-many', side: 'answer', operation, location: '', message: 'Prism found more violations than its header holds' }];
  }
  if (!Array.isArray(entries)) return [];
  // Prism repeats a violation once per branch of a oneOf it tried: each is named once.
  const seen = new Set<string>();
  return entries
    .filter((entry) => entry.severity === 'Error' || entry.severity === 'Warning')
    .map((entry) => {
      const [prefix, ...path] = Array.isArray(entry.location) ? entry.location.map(String) : [];
      return {
        rule: `openapi:${String(entry.code ?? 'schema')}`,
        side: sides[prefix ?? ''] ?? 'answer',
        operation,
        location: path.join('.'),
        message: String(entry.message ?? ''),
      };
    })
    .filter((violation) => {
      const key = `${violation.rule}\n${violation.location}\n${violation.message}`;
      return !seen.has(key) && Boolean(seen.add(key));
    });
}
