/** Amounts are kept in cents, so that sums and comparisons are exact; requests and answers carry two decimals. */
export const toCents = (amount: number) => Math.round(amount * 100);
export const fromCents = (cents: number) => cents / 100;

/** Whether a request amount has at most two decimal places (within floating-point error). */
export const hasTwoDecimals = (amount: number) => Number.isFinite(amount) && Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6;

const symbols: Record<string, string> = { AUD: '$', NZD: '$' };

/** The reference's Money object: currency, amount with two decimals, and a customer-friendly text. */
export function money(cents: number, currency: string): { currency: string; amount: number; displayAmount: string } {
  const text = (Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = cents < 0 ? '-' : '';
  const symbol = symbols[currency];
  return { currency, amount: fromCents(cents), displayAmount: symbol ? `${sign}${symbol}${text}` : `${sign}${text} ${currency}` };
}
