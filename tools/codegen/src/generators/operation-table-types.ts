// The shape of a contract's operation table, written once: operation-table.ts builds every row with these types, and
// copies every declaration below this comment, as it is written here, into the generated table of the package that
// routes and checks requests by it (the payments sandbox), which cannot import this internal package.

/** A parameter of an operation: where it is sent, whether it must be, and its schema. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  /** JSON pointer of its schema in the bundled contract, where the schema's `$ref`s end. */
  readonly schema?: string;
  /** The schema's `type`: a path or query value arrives as text, and is read as this type before it is checked. */
  readonly type?: string;
}

/** The media types of a body, each with the JSON pointer of its schema where the `$ref`s end (null: no schema). */
export type OperationContent = Readonly<Record<string, string | null>>;

export interface OperationResponse {
  /** The headers the answer declares. */
  readonly headers: readonly string[];
  readonly content: OperationContent;
}

/** One operation of the contract (its operationId is its key in the table). */
export interface OperationEntry {
  /** Upper case, as a request line carries it. */
  readonly method: string;
  /** The path template under the base path, with `{name}` placeholders. */
  readonly path: string;
  /** The security schemes it accepts: any one of them. */
  readonly security: readonly string[];
  /** The header it takes the idempotency key in, when it takes one. */
  readonly idempotencyHeader?: string;
  /** The path item's parameters merged under the operation's own (the operation's win on location and name). */
  readonly parameters: readonly OperationParameter[];
  readonly requestBody?: { readonly required: boolean; readonly content: OperationContent };
  /**
   * The JSON body's fields whose schema lists its values in part (`x-paykit-open-enum`: the service takes values the
   * reference does not publish), each with the values it publishes; absent when none.
   */
  readonly openValues?: Readonly<Record<string, readonly string[]>>;
  /** By status as the contract keys them: `201`, `4XX`, `default`. */
  readonly responses: Readonly<Record<string, OperationResponse>>;
}

/** A contract's operations, as a server routes requests and checks them by it. */
export interface OperationTable {
  /** The path of the first server URL (`/rest/v1`), under which every path of the table is served. */
  readonly basePath: string;
  /** The contract's idempotency key: the header it marks, when it marks one. */
  readonly idempotencyHeader?: string;
  /** The contract's webhooks (`webhooks`, POSTed to a merchant): the JSON pointer of each event's body schema, null: none. */
  readonly webhooks?: Readonly<Record<string, string | null>>;
  /** By operationId, in the contract's order: path by path, each path's methods in the order OpenAPI lists them. */
  readonly operations: Readonly<Record<string, OperationEntry>>;
}
