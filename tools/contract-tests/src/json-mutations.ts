import { walkContainers, type JsonEdit, type JsonPath } from './json-edits.js';
import { deref, isNode, type DocumentNode as Node, type OpenApiDocument } from '@paykit/contracts';

/**
 * The response changes the reference's versioning rules allow without a new version, as mutations of a parsed JSON
 * body. Each returns the edits it made (empty when the body gave it nothing to change), so that the comparison can
 * take them back.
 */
export interface JsonMutationContext {
  /** Property names whose schema is the spec's `Identifier` (or a string id limited to 255 characters). */
  identifierNames: ReadonlySet<string>;
  /** Property names whose schema is an open enumeration (`x-paykit-open-enum`). */
  openEnumNames: ReadonlySet<string>;
}

export interface JsonMutation {
  name: string;
  /** Mutates `body` in place. */
  apply(body: unknown, context: JsonMutationContext): JsonEdit[];
}

type Container = Record<string, unknown> | unknown[];
const isObject = (node: Container): node is Record<string, unknown> => !Array.isArray(node);

// Values of every JSON type, so that a client which assumes a type for a property it does not know is caught.
const unknownValues: unknown[] = [
  'added by the service later',
  { nested: { deeper: [1, 'two', { three: true }] }, note: null },
  [{ id: 'x-1' }, 'y', 3.5],
  42,
  false,
  null,
];

const unknownProperties: JsonMutation = {
  name: 'unknown-properties',
  apply(body) {
    const edits: JsonEdit[] = [];
    let counter = 0;
    walkContainers(body, (node, path) => {
      if (!isObject(node)) return;
      const key = `paykitAddedLater${counter}`;
      node[key] = structuredClone(unknownValues[counter % unknownValues.length]);
      counter++;
      edits.push({ op: 'add', path: [...path, key] });
    });
    return edits;
  },
};

/** Reverses the key order of every object with two keys or more (values untouched, so there is nothing to undo). */
const shuffledOrder: JsonMutation = {
  name: 'shuffled-order',
  apply(body) {
    walkContainers(body, (node) => {
      if (!isObject(node)) return;
      const entries = Object.entries(node);
      if (entries.length < 2) return;
      for (const [key] of entries) delete node[key];
      for (const [key, value] of entries.reverse()) node[key] = value;
    });
    return [];
  },
};

/** Other identifier formats, up to the 255 characters the reference allows. */
export const otherIdentifierFormats: readonly string[] = [
  `ID${'7'.repeat(40)}${'abcdefghijklmnopqrstuvwxyz'.repeat(8)}`.slice(0, 255).padEnd(255, 'z'),
  '0b9f6d2e-4c1a-4f7e-9a35-d8c2b1e06f47',
  'Z',
  'urn:paykit:object:2026.11_ABC-000001',
  '000000000000000000000000000000000000000000000000000000000000000042',
];

const identifiers: JsonMutation = {
  name: 'identifier-formats',
  apply(body, context) {
    const edits: JsonEdit[] = [];
    let counter = 0;
    walkContainers(body, (node, path) => {
      if (!isObject(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (!context.identifierNames.has(key) || typeof value !== 'string') continue;
        const replacement = otherIdentifierFormats.find((f, i) => i >= counter % otherIdentifierFormats.length && f !== value) ?? otherIdentifierFormats[0]!;
        counter++;
        node[key] = replacement;
        edits.push({ op: 'replace', path: [...path, key], original: value });
      }
    });
    return edits;
  },
};

const rewordedMessages: JsonMutation = {
  name: 'reworded-messages',
  apply(body) {
    const edits: JsonEdit[] = [];
    walkContainers(body, (node, path) => {
      if (!isObject(node)) return;
      for (const key of ['customerMessage', 'developerMessage'] as const) {
        const value = node[key];
        if (typeof value !== 'string') continue;
        node[key] = `Reworded (${key}): ${value.split('').reverse().join('')} — « nouvelle formulation » ✓`;
        edits.push({ op: 'replace', path: [...path, key], original: value });
      }
      const messages = node.messages;
      if (Array.isArray(messages)) {
        messages.forEach((message, index) => {
          if (typeof message !== 'string') return;
          messages[index] = `This field needs another value (was: ${message.length} characters of wording)`;
          edits.push({ op: 'replace', path: [...path, 'messages', index], original: message });
        });
      }
    });
    return edits;
  },
};

/** An error body is one with the reference's error fields; it gets one more field error (and `errors` if absent). */
const extraFieldErrors: JsonMutation = {
  name: 'extra-field-errors',
  apply(body) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
    const error = body as Record<string, unknown>;
    if (!('developerMessage' in error || 'customerMessage' in error || 'errors' in error)) return [];
    const extra = { fieldName: 'paykitNewlyCheckedField', fieldValue: 'value the service now reports', messages: ['is checked more closely now'] };
    if (Array.isArray(error.errors)) {
      error.errors.push(extra);
      return [{ op: 'insert', path: ['errors', error.errors.length - 1] }];
    }
    if (error.errors !== undefined) return [];
    error.errors = [extra];
    return [{ op: 'add', path: ['errors'] }];
  },
};

/**
 * Links of relations and verbs the client does not know: one first in every `links` array (where a client reading
 * `links[0]` as the next page would go wrong) and one last, with an HTTP verb that does not exist yet.
 */
const unknownLinkRelations: JsonMutation = {
  name: 'unknown-link-relations',
  apply(body) {
    const edits: JsonEdit[] = [];
    walkContainers(body, (node, path) => {
      if (!isObject(node) || !Array.isArray(node.links)) return;
      node.links.unshift({ rel: 'paykit-added-relation', href: 'https://service.example.test/rest/v1/added-resource/1', requestMethod: 'GET' });
      edits.push({ op: 'insert', path: [...path, 'links', 0] });
      node.links.push({ rel: 'archive', href: 'https://service.example.test/rest/v1/archive/2', requestMethod: 'ARCHIVE' });
      edits.push({ op: 'insert', path: [...path, 'links', node.links.length - 1] });
    });
    return edits;
  },
};

const unknownOpenEnumValues: JsonMutation = {
  name: 'open-enum-values',
  apply(body, context) {
    const edits: JsonEdit[] = [];
    walkContainers(body, (node, path) => {
      if (!isObject(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (!context.openEnumNames.has(key) || typeof value !== 'string') continue;
        node[key] = 'PAYKIT_VALUE_ADDED_LATER';
        edits.push({ op: 'replace', path: [...path, key], original: value });
      }
    });
    return edits;
  },
};

/** Each tolerated response change on its own, in the order `all` applies them (shuffling last: it moves no value). */
export const jsonMutations: readonly JsonMutation[] = [
  identifiers,
  unknownOpenEnumValues,
  rewordedMessages,
  extraFieldErrors,
  unknownLinkRelations,
  unknownProperties,
  shuffledOrder,
];

/** Every rule, one after the other, on the same body. */
export const allJsonMutations: JsonMutation = {
  name: 'all-together',
  apply(body, context) {
    return jsonMutations.flatMap((mutation) => mutation.apply(body, context));
  },
};

const identifierSchemaRef = '#/components/schemas/Identifier';

/**
 * Reads from the spec which property names hold identifiers and which hold open enumerations, by walking every
 * schema of the components and of the operations.
 */
export function mutationContext(document: OpenApiDocument): JsonMutationContext {
  const identifierNames = new Set<string>();
  const openEnumNames = new Set<string>();
  const seen = new Set<unknown>();
  const visitSchema = (raw: unknown): void => {
    if (!isNode(raw) || seen.has(raw)) return;
    seen.add(raw);
    const schema = deref(document, raw) ?? {};
    if (isNode(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!isNode(property)) continue;
        const resolved = deref(document, property) ?? {};
        const isIdentifier =
          property.$ref === identifierSchemaRef ||
          (resolved.type === 'string' && resolved.maxLength === 255 && /(^id|Id|ID|Token)$/.test(name));
        if (isIdentifier) identifierNames.add(name);
        if (Array.isArray(resolved['x-paykit-open-enum'])) openEnumNames.add(name);
        visitSchema(property);
      }
    }
    for (const key of ['items', 'additionalProperties', 'not']) visitSchema(schema[key]);
    for (const key of ['allOf', 'oneOf', 'anyOf', 'prefixItems']) {
      if (Array.isArray(schema[key])) for (const part of schema[key] as unknown[]) visitSchema(part);
    }
  };
  const schemas = (document.components as Node | undefined)?.schemas;
  if (isNode(schemas)) for (const schema of Object.values(schemas)) visitSchema(schema);
  return { identifierNames, openEnumNames };
}

export type { JsonPath };
