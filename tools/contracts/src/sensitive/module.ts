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
 * What the contract marks secret, and how: \`card-number\` keeps at most its last four digits; \`card-security-code\`
 * and \`secret\` are never kept; \`card-expiry\` is a card's expiry date where it is card data to protect. A package
 * that logs, records, reports or stores a value masks it by these tables, which are the contract's marks
 * (\`x-paykit-sensitive\` in the OpenAPI specs, \`<paykit:sensitive>\` in an XSD's \`xs:appinfo\`), never a list of its own.
 */
export type SensitiveKind = ${SENSITIVE_KINDS.map((kind) => `'${kind}'`).join(' | ')};

/** One contract's marks. Every name has one kind in the whole contract, so a name masks the same at any depth. */
export interface SensitiveTable {
  /** JSON property name -> kind, in any request or answer body, at any depth. */
  readonly properties: Readonly<Record<string, SensitiveKind>>;
  /**
   * A property that repeats the value of another field -> the sibling property that names that field: the value is
   * as sensitive as the field named (\`fieldValue\` of a field error, named by its \`fieldName\`).
   */
  readonly echoes: Readonly<Record<string, string>>;
  /** Parameter name -> kind, by location; header names are lower case; the credentials' headers are included. */
  readonly parameters: {
    readonly header: Readonly<Record<string, SensitiveKind>>;
    readonly query: Readonly<Record<string, SensitiveKind>>;
    readonly path: Readonly<Record<string, SensitiveKind>>;
    readonly cookie: Readonly<Record<string, SensitiveKind>>;
  };
  /**
   * operationId -> an operation whose whole request or answer body is sensitive (every value in it), because the
   * field that carries the secret is not published.
   */
  readonly bodies: Readonly<Record<string, { readonly request?: SensitiveKind; readonly response?: SensitiveKind }>>;
  /** XML element local name -> kind, in any XML body, at any depth. */
  readonly xmlElements: Readonly<Record<string, SensitiveKind>>;
}

/**
 * The kind \`map\` (one of a table's maps) gives \`name\`, or undefined. Own keys only, so that \`constructor\` or
 * \`__proto__\` is never read as a mark. Look header names up in lower case.
 */
export function sensitiveKindOf(map: Readonly<Record<string, SensitiveKind>>, name: string): SensitiveKind | undefined {
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
      `\n/** The marks of the ${contract} contract (${spec}); readonly (\`as const\`). */\n` +
      `export const ${sensitiveTableName(contract)} = ${JSON.stringify(table(marks), null, 2)} as const satisfies SensitiveTable;\n`,
  );
  return `${header}\n${preamble}${tables.join('')}`;
}
