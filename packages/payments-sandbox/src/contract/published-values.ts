import { nodeAt, resolvePointer, type OperationSpec, type SandboxContract } from './contract.js';

/**
 * Request fields whose values the contract lists only in part (`x-paykit-open-enum`: `entryMode`, `eci`,
 * `transactionType`): the service takes values the reference does not publish, so the schema lets any string
 * through, and this finds the ones outside the published list so that the sandbox can flag them (OUR assumption
 * `unpublished-request-values`).
 */

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface UnpublishedValue {
  field: string;
  value: string;
  published: readonly string[];
}

interface OpenField {
  field: string;
  published: readonly string[];
}

/** The open-list fields of the schema at `pointer`: its own properties and those of its `allOf` parts. */
function openFields(document: Node, pointer: string, depth = 0): OpenField[] {
  if (depth > 8) return [];
  const at = resolvePointer(document, pointer);
  const schema = nodeAt(document, at);
  if (!isNode(schema)) return [];
  const found: OpenField[] = [];
  if (isNode(schema.properties)) {
    for (const name of Object.keys(schema.properties)) {
      const property = nodeAt(document, resolvePointer(document, `${at}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`));
      const published = isNode(property) ? property['x-paykit-open-enum'] : undefined;
      if (Array.isArray(published)) found.push({ field: name, published: published.map(String) });
    }
  }
  if (Array.isArray(schema.allOf)) schema.allOf.forEach((_, index) => found.push(...openFields(document, `${at}/allOf/${index}`, depth + 1)));
  return found;
}

/** Read once per operation: the contract does not change while the sandbox runs. */
const byOperation = new WeakMap<OperationSpec, OpenField[]>();

function openFieldsOf(contract: SandboxContract, operation: OperationSpec): OpenField[] {
  let fields = byOperation.get(operation);
  if (!fields) {
    const pointer = operation.requestBody?.media.get('application/json');
    fields = pointer ? openFields(contract.document, pointer) : [];
    byOperation.set(operation, fields);
  }
  return fields;
}

/** The string values of `body` that the contract's open lists do not publish (empty for any other operation). */
export function unpublishedValues(contract: SandboxContract, operation: OperationSpec, body: unknown): UnpublishedValue[] {
  const fields = openFieldsOf(contract, operation);
  if (!fields.length || !isNode(body)) return [];
  return fields.flatMap(({ field, published }) => {
    const value = body[field];
    return typeof value === 'string' && !published.includes(value) ? [{ field, value, published }] : [];
  });
}

/** One warning per value, as the header and the log line give it: printable ASCII only, so any value fits a header. */
export function describeUnpublished({ field, value, published }: UnpublishedValue): string {
  const shown = JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}...` : value).replace(/[^\x20-\x7e]/g, '?');
  return `${field} ${shown} is not a value the reference publishes (published: ${published.join(', ')})`;
}
