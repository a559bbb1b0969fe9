/**
 * What a contract marks secret, and how each kind of secret is treated wherever a package logs, records, reports or
 * stores a value. The marks are written once in the specs (`x-paykit-sensitive` in OpenAPI, `<paykit:sensitive>` in an
 * XSD's `xs:appinfo`); every package reads them through the tables codegen writes into its `src/generated/sensitive.ts`.
 */

/**
 * - `card-number`: a card number; kept with at most its last four digits.
 * - `card-security-code`: the CVN; never kept.
 * - `card-expiry`: a card's expiry date where it is card data to protect (no field of our contracts today: the payments
 *   service answers with the expiry unmasked beside a masked number).
 * - `secret`: an API key, a password, a signing secret, a token that authorises on its own; never kept.
 */
export type SensitiveKind = 'card-number' | 'card-security-code' | 'card-expiry' | 'secret';

export const SENSITIVE_KINDS: readonly SensitiveKind[] = ['card-number', 'card-security-code', 'card-expiry', 'secret'];

export const isSensitiveKind = (value: unknown): value is SensitiveKind => (SENSITIVE_KINDS as readonly unknown[]).includes(value);

/**
 * The OpenAPI extension of a mark: a kind, or `false` for a name that looks secret and is not (the description then
 * says why; the lint rule `paykit/sensitive-marked` asks for it). On a property, a parameter, a security scheme, or the
 * whole schema of a request or answer body.
 */
export const sensitiveExtension = 'x-paykit-sensitive';

/**
 * On a property that repeats the value of another field, named by a sibling property (a field error's `fieldValue`,
 * named by its `fieldName`): the property is as sensitive as the field named.
 */
export const sensitiveFromExtension = 'x-paykit-sensitive-from';

/** The namespace of our own marks in an XSD's `xs:annotation/xs:appinfo` (`<paykit:sensitive>secret</paykit:sensitive>`). */
export const PAYKIT_XSD_NS = 'urn:paykit:contract-extensions:v1';

/** A mark as written: a kind, an explicit `false`, or nothing. */
export type MarkState = SensitiveKind | false | undefined;

/** Marks that contradict each other or say nothing a reader can use; the message names every place. */
export class SensitiveMarksError extends Error {
  override readonly name = 'SensitiveMarksError';
}

/** What a mark's value means, or a message saying why it is not one. */
export function readMarkValue(value: unknown): { state: MarkState } | { problem: string } {
  if (value === undefined || value === false || isSensitiveKind(value)) return { state: value };
  return { problem: `must be one of ${SENSITIVE_KINDS.join(', ')}, or false, not ${JSON.stringify(value)}` };
}

export const describeState = (state: MarkState): string => (state === undefined ? 'unmarked' : state === false ? 'marked false' : `marked ${state}`);
