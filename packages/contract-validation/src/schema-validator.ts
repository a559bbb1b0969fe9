/** One problem ajv's compiled code found (its `ErrorObject`, the fields we read). */
export interface SchemaError {
  /** JSON pointer of the value, `''` for the whole value (`/cardNumber`, `/items/0/amount`). */
  readonly instancePath: string;
  /** Where in the schema, relative to the compiled function's own schema (`#/properties/cvn/pattern`). */
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A compiled schema: true when the value is valid, otherwise false with `errors` set. */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}
