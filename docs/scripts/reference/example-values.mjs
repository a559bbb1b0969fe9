// Example values read out of a bundled OpenAPI document, for the reference pages' code samples: a request body from
// the operation's own examples (or built from its schema), and a value for each parameter from its example, else from
// a property of the same name in the document's examples, else from its schema.

import { deref } from '@paykit/contracts';

/** @typedef {Record<string, any>} Json */

/** @param {Json} doc @param {Json | undefined} node the first value of `examples` (a map of Example objects or an array), or `example` */
function firstExample(doc, node) {
  if (!node) return undefined;
  if (node.example !== undefined) return { value: node.example };
  if (Array.isArray(node.examples) && node.examples.length > 0) return { value: node.examples[0] };
  if (node.examples && typeof node.examples === 'object') {
    const first = Object.values(node.examples)[0];
    const example = deref(doc, first);
    if (example && 'value' in example) return { value: example.value };
  }
  return undefined;
}

/**
 * The first primitive value of every property name found in the document's examples (`receiptNumber`, `fileName`...),
 * so that a path parameter shows an identifier that the rest of the page's examples also use.
 * @param {Json} doc
 * @returns {Map<string, string | number | boolean>}
 */
export function valuesByPropertyName(doc) {
  /** @type {Map<string, string | number | boolean>} */
  const found = new Map();
  /** @param {unknown} value */
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (['string', 'number', 'boolean'].includes(typeof child) && !found.has(key)) found.set(key, /** @type {string | number | boolean} */ (child));
        walk(child);
      }
    }
  };
  for (const example of Object.values(doc.components?.examples ?? {})) walk(/** @type {Json} */ (example).value);
  return found;
}

const formats = /** @type {Record<string, string>} */ ({
  date: '2026-01-21',
  'date-time': '2026-01-21T10:00:00Z',
  email: 'payer@example.com',
  uri: 'https://example.com/',
  uuid: '6f1c1f0e-2b7d-4a43-9c55-0d9b1f3a7e21',
});

/**
 * A value valid for `schema`, for a name: its example, const, default or first enum value, else one built from its
 * type (objects with their required properties only, arrays with one item).
 * @param {Json} doc
 * @param {Json | undefined} node
 * @param {string} name
 * @param {Map<string, unknown>} byName
 * @param {number} [depth]
 * @returns {unknown}
 */
export function valueForSchema(doc, node, name, byName, depth = 0) {
  const schema = /** @type {Json | undefined} */ (deref(doc, node));
  if (!schema || depth > 8) return undefined;
  const own = firstExample(doc, schema);
  if (own) return own.value;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((/** @type {unknown} */ v) => v !== null);
  const choice = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(choice)) return valueForSchema(doc, choice[0], name, byName, depth + 1);
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((/** @type {Json} */ part) => valueForSchema(doc, part, name, byName, depth + 1));
    const base = valueForSchema(doc, { ...schema, allOf: undefined }, name, byName, depth + 1);
    return Object.assign({}, ...parts.filter((/** @type {unknown} */ p) => p && typeof p === 'object'), base && typeof base === 'object' ? base : {});
  }
  const type = Array.isArray(schema.type) ? schema.type.find((/** @type {string} */ t) => t !== 'null') : schema.type;
  if (type === 'object' || (!type && schema.properties)) {
    const required = new Set(schema.required ?? []);
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([key]) => required.has(key))
        .map(([key, child]) => [key, valueForSchema(doc, child, key, byName, depth + 1)]),
    );
  }
  if (type === 'array') return [valueForSchema(doc, schema.items, name, byName, depth + 1)];
  if (byName.has(name) && typeof byName.get(name) === (type === 'integer' ? 'number' : type)) return byName.get(name);
  if (type === 'integer' || type === 'number') return schema.minimum ?? schema.exclusiveMinimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'string') return formats[schema.format] ?? name;
  return undefined;
}

/**
 * The value of a parameter: its own example, else the value of a property of that name in the examples, else one
 * built from its schema.
 * @param {Json} doc
 * @param {Json} parameter
 * @param {Map<string, unknown>} byName
 */
export function parameterValue(doc, parameter, byName) {
  const own = firstExample(doc, parameter) ?? firstExample(doc, deref(doc, parameter.schema));
  if (own) return own.value;
  if (byName.has(parameter.name)) return byName.get(parameter.name);
  return valueForSchema(doc, parameter.schema, parameter.name, byName);
}

/**
 * The request body of an operation for one media type: its first example, else one built from its schema.
 * @param {Json} doc
 * @param {Json} mediaType the Media Type object
 * @param {Map<string, unknown>} byName
 */
export function bodyValue(doc, mediaType, byName) {
  const own = firstExample(doc, mediaType);
  return own ? own.value : valueForSchema(doc, mediaType.schema, 'body', byName);
}
