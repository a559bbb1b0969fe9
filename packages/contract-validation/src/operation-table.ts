import type { SchemaValidator } from './schema-validator.js';

/** A compiled schema and where it sits in the bundled spec (`#/components/schemas/Transaction`). */
export interface SchemaEntry {
  readonly validate: SchemaValidator;
  readonly source: string;
}

export interface ParameterEntry {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  /** The schema's `type`: a query or path value arrives as text and is read as this type before it is checked. */
  readonly type?: string;
  readonly schema?: SchemaEntry;
}

/** A media type of a body; `schema` only where the body is JSON (others are checked for their media type alone). */
export interface MediaEntry {
  readonly mediaType: string;
  readonly schema?: SchemaEntry;
}

export interface ResponseEntry {
  readonly headers: Readonly<Record<string, { readonly required: boolean; readonly schema?: SchemaEntry }>>;
  readonly content: readonly MediaEntry[];
}

/** One operation of a contract, as its generated table holds it. */
export interface OperationEntry {
  readonly id: string;
  readonly method: string;
  /** Path template under the base path, with `{name}` placeholders. */
  readonly path: string;
  /** JSON pointer of the Operation object in the bundled spec. */
  readonly source: string;
  /** Security scheme names the operation accepts (any one of them). */
  readonly security: readonly string[];
  /** The name of the idempotency header, when the operation takes it. */
  readonly idempotencyHeader?: string;
  readonly parameters: readonly ParameterEntry[];
  readonly requestBody?: { readonly required: boolean; readonly content: readonly MediaEntry[] };
  /** By status as the spec keys them: `201`, `4XX`, `default`. */
  readonly responses: Readonly<Record<string, ResponseEntry>>;
}

export interface SecuritySchemeEntry {
  readonly type: string;
  readonly scheme?: string;
  readonly in?: string;
  readonly name?: string;
}

/** A rule of `x-paykit-rules`: its values (durations in milliseconds) and the description the spec gives it. */
export type RuleEntry = { readonly description: string } & { readonly [field: string]: unknown };

/** A REST contract as the validator reads it (`src/generated/<name>/contract.ts`). */
/** A webhook the contract declares (`webhooks`): the body the service POSTs to a merchant for one event. */
export interface WebhookEntry {
  /** The operationId of the webhook's `post`. */
  readonly id: string;
  /** Where the webhook's `post` sits in the bundled spec. */
  readonly source: string;
  readonly requestBody?: { readonly required: boolean; readonly content: readonly MediaEntry[] };
}

export interface ContractTable {
  readonly name: string;
  readonly title: string;
  /** `info.version` of the spec. */
  readonly version: string;
  /** The path of the first server URL (`/rest/v1`). */
  readonly basePath: string;
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeEntry>>;
  readonly rules: Readonly<Record<string, RuleEntry>>;
  /** The id of each compiled schema (what its errors' `schemaPath` starts with) -> where it sits in the bundled spec. */
  readonly schemaSources: Readonly<Record<string, string>>;
  readonly operations: readonly OperationEntry[];
  /** The contract's webhooks by event name, read from the spec's `webhooks`. */
  readonly webhooks: Readonly<Record<string, WebhookEntry>>;
}
