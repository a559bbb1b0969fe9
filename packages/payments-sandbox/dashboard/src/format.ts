// How values read on the page. Amounts are the API's own `displayAmount` where it gives one.

interface Money {
  amount?: number;
  currency?: string;
  displayAmount?: string;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function money(value: unknown): string {
  if (!isRecord(value)) return '';
  const m = value as Money;
  return m.displayAmount ?? (m.amount !== undefined ? `${m.amount} ${m.currency ?? ''}`.trim() : '');
}

/** A time on the sandbox clock (an ISO text or milliseconds), in the reader's locale, to the second. */
export function time(value: unknown): string {
  const date = typeof value === 'number' || typeof value === 'string' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A duration in milliseconds, as a person says it, to its two largest units: `1 day 2 hours`, `150 ms`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const parts: string[] = [];
  let rest = Math.floor(ms / 1000);
  for (const [unit, size] of [['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.slice(0, 2).join(' ');
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);
