import { deref, resolvePointer } from './refs.js';
import { isNode, type DocumentNode, type OpenApiDocument } from './document.js';

/**
 * The mark on the Parameter object of the service's idempotency key. OpenAPI has no keyword for "a resend with this
 * header's value gets the original answer", so the contract marks the header (`x-paykit-idempotency-key: true`) and
 * every reader finds it by the mark, never by its name: the name is written once, in the spec.
 */
export const idempotencyKeyExtension = 'x-paykit-idempotency-key';

/** What the idempotency-key readers need of a parameter (an `OpenApiParameter` of the model). */
export interface MarkableParameter {
  readonly name: string;
  readonly in: string;
  readonly schema: DocumentNode | undefined;
  readonly schemaPointer: string | undefined;
  /** The Parameter object after its `$ref`s, where the mark sits. */
  readonly node: DocumentNode;
}

/** The contract's idempotency key: the one header its operations mark, read by `openApiModel`. */
export interface IdempotencyKey {
  /** The header as the contract names it (`Idempotency-Key`); HTTP compares header names in any case. */
  readonly header: string;
  /** Its schema after `$ref`s: the same on every operation that takes it. */
  readonly schema: DocumentNode;
  /** Where the schema sits after `$ref`s (the first marked operation's), for validators that compile it in place. */
  readonly schemaPointer: string | undefined;
  /** The operations that take it, in the model's order. */
  readonly operationIds: readonly string[];
}

export class IdempotencyKeyError extends Error {
  override readonly name = 'IdempotencyKeyError';
}

/**
 * Whether a parameter is the idempotency key: marked `true`. A mark with another value, or on anything but a header,
 * is refused (naming `where`), since a reader would otherwise skip it in silence.
 */
export function isIdempotencyKey(parameter: MarkableParameter, where: string): boolean {
  if (!(idempotencyKeyExtension in parameter.node)) return false;
  const mark = parameter.node[idempotencyKeyExtension];
  if (mark !== true) throw new IdempotencyKeyError(`${where}: ${idempotencyKeyExtension} must be true (it marks the idempotency key), not ${JSON.stringify(mark)}`);
  if (parameter.in !== 'header') throw new IdempotencyKeyError(`${where}: ${idempotencyKeyExtension} marks a ${parameter.in} parameter; the idempotency key is a header`);
  return true;
}

/**
 * The one idempotency key of a contract, from the parameters its operations mark; undefined when none is marked.
 * Every mark must name the same header (in any case) with the same schema: clients send one key, whatever the operation.
 */
export function readIdempotencyKey(document: OpenApiDocument, marked: { operationId: string; parameter: MarkableParameter }[]): IdempotencyKey | undefined {
  if (marked.length === 0) return undefined;
  const names = new Set(marked.map(({ parameter }) => parameter.name.toLowerCase()));
  if (names.size > 1) {
    const listed = marked.map(({ operationId, parameter }) => `${operationId}: ${parameter.name}`).join(', ');
    throw new IdempotencyKeyError(`${idempotencyKeyExtension} marks more than one header (${listed}); a contract has one idempotency key`);
  }
  const schemas = new Map<string, string[]>();
  for (const { operationId, parameter } of marked) {
    const text = JSON.stringify(deref(document, parameter.schema) ?? {});
    schemas.set(text, [...(schemas.get(text) ?? []), operationId]);
  }
  if (schemas.size > 1) {
    const groups = [...schemas.values()].map((ids) => `[${ids.join(', ')}]`).join(' and ');
    throw new IdempotencyKeyError(`the idempotency key ${marked[0]!.parameter.name} has different schemas on different operations: ${groups}`);
  }
  const [first] = marked;
  const schema = deref(document, first!.parameter.schema);
  return {
    header: first!.parameter.name,
    schema: isNode(schema) ? schema : {},
    schemaPointer: first!.parameter.schemaPointer && resolvePointer(document, first!.parameter.schemaPointer),
    operationIds: marked.map(({ operationId }) => operationId),
  };
}
