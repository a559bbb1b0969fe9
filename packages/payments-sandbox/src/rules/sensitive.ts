import { paymentsSensitive, sensitiveKindOf, type SensitiveKind, type SensitiveTable } from '../generated/sensitive.js';

/**
 * What the sandbox keeps of the values the contract marks sensitive (`x-paykit-sensitive`, read from the generated
 * tables: never a list of names of our own), in its records, its stores, its answers' echoes and its logs: a card
 * number keeps at most its last four digits; a card security code and a secret are not kept at all; a card expiry
 * is kept. The marks are by name, at any depth of any body, so the open objects of the contract (a payment's
 * metadata, a customer's fields), which take any property, are covered wherever a merchant puts a card.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** A card number as kept: every letter and digit but the last four replaced by `x`. */
export function maskCardNumber(text: string): string {
  let left = 0;
  for (const char of text) if (/[0-9A-Za-z]/.test(char)) left += 1;
  return text.replace(/[0-9A-Za-z]/g, (char) => (left-- > 4 ? 'x' : char));
}

/** What is kept of a value of `kind`; undefined when nothing is (then the property goes too). */
export function keptOf(kind: SensitiveKind, value: unknown): unknown {
  switch (kind) {
    case 'card-number':
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return maskCardNumber(String(value));
      // Anything else under a card number's name (an object, a list) is kept with every value in it masked.
      return everyValueAs(kind, value);
    case 'card-expiry':
      return value;
    default:
      return undefined;
  }
}

/** `value` with every value in it taken as one of `kind` (a body marked as a whole). */
export function everyValueAs(kind: SensitiveKind, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => everyValueAs(kind, item)).filter((item) => item !== undefined);
  if (isPlainObject(value)) {
    const kept: [string, unknown][] = [];
    for (const [name, inner] of Object.entries(value)) {
      const masked = everyValueAs(kind, inner);
      if (masked !== undefined) kept.push([name, masked]);
    }
    // fromEntries makes own properties, `__proto__` included (an assignment would set the prototype).
    return Object.fromEntries(kept);
  }
  return value === null || typeof value === 'boolean' ? value : keptOf(kind, value);
}

/**
 * A copy of `value` fit to keep: each property the contract marks replaced by what is kept of it (or left out), at
 * any depth, and a property that repeats another field's value (a field error's `fieldValue`) treated as that field.
 */
export function keepable<T>(value: T, table: SensitiveTable = paymentsSensitive): T {
  if (Array.isArray(value)) return value.map((item) => keepable(item, table)) as T;
  if (!isPlainObject(value)) return value;
  const kept: [string, unknown][] = [];
  for (const [name, inner] of Object.entries(value)) {
    const echoed = Object.prototype.hasOwnProperty.call(table.echoes, name) ? value[table.echoes[name]!] : undefined;
    const kind = sensitiveKindOf(table.properties, name) ?? (typeof echoed === 'string' ? kindOfField(echoed, table) : undefined);
    const masked = kind ? keptOf(kind, inner) : keepable(inner, table);
    if (masked !== undefined) kept.push([name, masked]);
  }
  return Object.fromEntries(kept) as T;
}

/** The kind of a field named as the field errors name it (`creditCard.cardNumber`: its last segment's). */
export function kindOfField(fieldName: string, table: SensitiveTable = paymentsSensitive): SensitiveKind | undefined {
  return sensitiveKindOf(table.properties, fieldName.split(/[./]/).filter(Boolean).at(-1) ?? '');
}

/** A value as a field error shows it: what is kept of it, as text (empty when nothing is). */
export function describeKept(value: unknown, kind: SensitiveKind | undefined, table: SensitiveTable = paymentsSensitive): string {
  const kept = kind ? keptOf(kind, value) : keepable(value, table);
  if (kept === undefined) return '';
  return typeof kept === 'string' ? kept : JSON.stringify(kept);
}
