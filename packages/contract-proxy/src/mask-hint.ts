/**
 * What a replay needs of one masked value, never the value: its kind (the contract's `x-paykit-sensitive` mark); for a
 * card number its scheme, length, issuer prefix (the first six digits) and last four digits, as the card shows of
 * itself; for a security code its length.
 */
export interface MaskHint {
  kind: 'card-number' | 'card-security-code' | 'card-expiry' | 'secret';
  scheme?: string;
  length?: number;
  iin?: string;
  last4?: string;
}

/** Hints by the location of each masked value in a request (`body.cardNumber`, `query.apiKey`). */
export type Masked = Record<string, MaskHint>;
