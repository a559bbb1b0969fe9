/** Amounts are kept in cents, so that sums and comparisons are exact; requests and answers carry two decimals. */
export const toCents = (amount: number) => Math.round(amount * 100);
export const fromCents = (cents: number) => cents / 100;

/**
 * The largest amount the sandbox takes, in cents: 9,999,999,999,999.99. OUR limit, not the reference's (it gives
 * none): below it every amount with two decimals is a distinct number in JSON and its cents are exact, so nothing is
 * recorded a cent off (past 2^53 cents, 90,071,992,547,409.93 was recorded as ...09.94). A larger amount gets 422.
 */
export const maxCents = 999_999_999_999_999;

/**
 * The cents of a request amount when it has at most two decimal places, or undefined: the amount must be the very
 * number its two-decimal value is read as (so 12.345 and 0.001 are refused, 19.99 and 0.1 + 0.2 taken as written
 * are not confused), and within `maxCents`.
 */
export function exactCents(amount: number): number | undefined {
  if (!Number.isFinite(amount)) return undefined;
  const cents = Math.round(amount * 100);
  return Math.abs(cents) <= maxCents && cents / 100 === amount ? cents : undefined;
}

/** The cents of a decimal text with two decimals (`"25.50"`), read exactly; undefined past `maxCents`. */
export function centsOfText(text: string): number | undefined {
  const match = /^(\d+)\.(\d{2})$/.exec(text);
  if (!match) return undefined;
  const cents = BigInt(match[1]!) * 100n + BigInt(match[2]!);
  return cents <= BigInt(maxCents) ? Number(cents) : undefined;
}

/** The largest amount, as the sandbox says it in a refusal. */
export const maxAmountText = '9999999999999.99';

const symbols: Record<string, string> = { AUD: '$', NZD: '$' };

/** The reference's Money object: currency, amount with two decimals, and a customer-friendly text. */
export function money(cents: number, currency: string): { currency: string; amount: number; displayAmount: string } {
  const text = (Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = cents < 0 ? '-' : '';
  const symbol = symbols[currency];
  return { currency, amount: fromCents(cents), displayAmount: symbol ? `${sign}${symbol}${text}` : `${sign}${text} ${currency}` };
}
