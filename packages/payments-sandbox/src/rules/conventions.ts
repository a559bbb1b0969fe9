/**
 * The sandbox's own conventions for outcomes a merchant must be able to test, like other providers' test cards.
 * They are the sandbox's, not the service's: the real service decides outcomes with the banking network and the
 * card issuer. The docs guide (docs/guides/09-testing-with-the-sandbox.md) lists them; keep the two in step.
 */

/** What a payment's amount makes the banking network answer, by the cents of `principalAmount`. */
export type PaymentOutcome = 'approved' | 'declined' | 'pending-approved' | 'pending-declined' | 'method-not-accepted' | 'suspended';

const outcomeByCents: Record<number, PaymentOutcome> = {
  51: 'declined',
  52: 'pending-approved',
  53: 'pending-declined',
  54: 'method-not-accepted',
  // Held by fraud screening: neither approved nor declined, listed by `GET /transactions/suspended`.
  55: 'suspended',
};

export const paymentOutcomeCents = outcomeByCents;

export function paymentOutcome(principalCents: number): PaymentOutcome {
  return outcomeByCents[Math.abs(principalCents) % 100] ?? 'approved';
}

/** What the issuer answers a 3D Secure authentication of a card, by card number; every other card gets `Y`. */
export const threeDSOutcomeByCard: Readonly<Record<string, string>> = {
  '4000000000003014': 'A',
  '4000000000003022': 'C',
  '4000000000003030': 'N',
  '4000000000003048': 'R',
  '4000000000003055': 'U',
};
export const defaultThreeDSOutcome = 'Y';

/** Debit cards among the test numbers; other `VISA` and `MASTERCARD` cards are `CREDIT`. */
export const debitCards: ReadonlySet<string> = new Set(['4000056655665556', '5200828282828210']);

/** Card scheme by the leading digits of the number (the schemes' public ranges). */
export function cardSchemeOf(cardNumber: string): string | undefined {
  const n = (digits: number) => Number(cardNumber.slice(0, digits));
  if (cardNumber.startsWith('4')) return 'VISA';
  if ((n(2) >= 51 && n(2) <= 55) || (n(4) >= 2221 && n(4) <= 2720)) return 'MASTERCARD';
  if (n(2) === 34 || n(2) === 37) return 'AMEX';
  if ((n(3) >= 300 && n(3) <= 305) || n(2) === 36 || n(2) === 38) return 'DINERS';
  if (n(2) === 35) return 'JCB';
  if (n(2) === 62) return 'UNIONPAY';
  return undefined;
}

/** An alias whose local part starts with this is refused at registration (it ends `REJECTED`). */
export const rejectedAliasPrefix = 'rejected';

/** A payment settles this long after it is taken; until then it can be voided. */
export const settlementDelayMs = 24 * 60 * 60 * 1000;
