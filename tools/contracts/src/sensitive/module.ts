import { SENSITIVE_KINDS } from './kinds.js';
import type { SensitiveMarks } from './openapi-marks.js';

/** One contract's table in a package's `src/generated/sensitive.ts`. */
export interface SensitiveTableSource {
  /** The contract's registry name (`payments`). */
  contract: string;
  /** The spec file it was read from, relative to the repository root. */
  spec: string;
  marks: SensitiveMarks;
}

/** The exported name of a contract's table: `payments-sandbox-control` -> `paymentsSandboxControlSensitive`. */
export const sensitiveTableName = (contract: string): string => `${contract.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Sensitive`;

/**
 * What a package reads of the marks: everything but the security schemes (their credentials are in `parameters`),
 * and bodies by operationId only (every package that masks a body knows its operation). Small on purpose: the
 * payments client ships inside a bundle-size budget.
 */
function table({ properties, echoes, parameters, bodies, xmlElements }: SensitiveMarks) {
  const body = Object.fromEntries(
    Object.entries(bodies).map(([operationId, { request, response }]) => [operationId, { ...(request ? { request } : {}), ...(response ? { response } : {}) }]),
  );
  return { properties, echoes, parameters, bodies: body, xmlElements };
}

const preamble = `/**
 * \`card-number\`: keep at most its last four digits; \`card-security-code\`, \`secret\`: never keep;
 * \`card-expiry\`: an expiry date that is card data. Mask by these tables only, never by a list of your own.
 */
export type SensitiveKind = ${SENSITIVE_KINDS.map((kind) => `'${kind}'`).join(' | ')};

type Kinds = Readonly<Record<string, SensitiveKind>>;

/** One contract's marks, by name: each name has one kind in the whole contract, at any depth of any body. */
export interface SensitiveTable {
  /** JSON property name -> kind. */
  readonly properties: Kinds;
  /** A property repeating another field's value -> the sibling naming that field (it is as sensitive as the field). */
  readonly echoes: Readonly<Record<string, string>>;
  /** By location; header names lower case; the security schemes' credentials included. */
  readonly parameters: Readonly<Record<'header' | 'query' | 'path' | 'cookie', Kinds>>;
  /** operationId -> its whole request or answer body is sensitive (the field that carries it is not published). */
  readonly bodies: Readonly<Record<string, { readonly request?: SensitiveKind; readonly response?: SensitiveKind }>>;
  /** XML element local name -> kind. */
  readonly xmlElements: Kinds;
}

/** The kind \`map\` gives \`name\`: own keys only, so \`constructor\` or \`__proto__\` is never a mark. */
export function sensitiveKindOf(map: Kinds, name: string): SensitiveKind | undefined {
  return Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
}
`;

/**
 * The source of a package's \`src/generated/sensitive.ts\`: \`SensitiveKind\`, \`SensitiveTable\`, \`sensitiveKindOf\`
 * and one table per contract (\`paymentsSensitive\`...), after the generator's \`header\`. The tables are frozen for
 * the type checker (\`as const\`: readonly to the last level), not at run time, where \`Object.freeze\` would cost the
 * payments bundle bytes it does not have.
 */
export function sensitiveModule(header: string, sources: readonly SensitiveTableSource[]): string {
  const tables = sources.map(
    ({ contract, spec, marks }) =>
      `\n/** The marks of the ${contract} contract (${spec}). */\n` +
      `export const ${sensitiveTableName(contract)} = ${JSON.stringify(table(marks), null, 2)} as const satisfies SensitiveTable;\n`,
  );
  return `${header}\n${preamble}${tables.join('')}`;
}
