import { isNode, resolveRef, type DocumentNode as Node, type OpenApiDocument, type Resolved } from '@paykit/contracts';
import type { Difference, Direction, Effect } from '../difference.js';
import { sameValue } from './same-value.js';

/** State of one comparison of two schemas (one request body, one response content, one parameter...). */
export interface SchemaWalk {
  before: OpenApiDocument;
  after: OpenApiDocument;
  direction: Direction;
  /** Inside a `text/csv` response: the properties are report columns. */
  report: boolean;
  /** Inside a filler column of a report. */
  filler: boolean;
  /**
   * Pairs of `$ref`s being compared on the way down to the current schema: meeting one again means the schema is
   * recursive, and its difference was already reported one level up. Siblings that share a component are each
   * compared, so every location of a change is reported.
   */
  visited: Set<string>;
  out: Difference[];
}

export const DOCUMENTATION_KEYWORDS = ['title', 'description', 'summary', 'example', 'examples', '$comment', 'externalDocs', 'deprecated'];
const MAX_KEYWORDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const MIN_KEYWORDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
/** Keywords this module compares itself; every other keyword that differs is reported as `other-changed`. */
const HANDLED = new Set([
  ...DOCUMENTATION_KEYWORDS,
  ...MAX_KEYWORDS,
  ...MIN_KEYWORDS,
  '$ref',
  'type',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'prefixItems',
  'additionalProperties',
  'allOf',
  'oneOf',
  'anyOf',
  'format',
  'pattern',
  'multipleOf',
  'uniqueItems',
  'discriminator',
]);
const OPEN_ENUM = 'x-paykit-open-enum';
const IDENTIFIER = 'x-paykit-identifier';
const FILLER = 'x-paykit-filler';

/**
 * An identifier is a string the service generates and may reshape within 255 characters: a schema reached through
 * a component named `Identifier`, `...Identifier` or `...Id`, or one marked `x-paykit-identifier: true`.
 */
export function isIdentifier(name: string | undefined, schema: Node): boolean {
  const named = name !== undefined && /(^|[a-z])(Identifier|Id|ID)$/.test(name);
  return (named || schema[IDENTIFIER] === true) && typeList(schema).every((t) => t === 'string');
}

const isFillerColumn = (name: string, schema: unknown): boolean =>
  /^filler/i.test(name) || (isNode(schema) && schema[FILLER] === true);

function typeList(schema: Node): string[] {
  const raw = schema.type;
  const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : [];
  if (schema.nullable === true && !list.includes('null')) list.push('null');
  return [...new Set(list)].sort();
}

/** `integer` values are also `number` values. */
const covers = (types: string[], type: string): boolean =>
  types.length === 0 || types.includes(type) || (type === 'integer' && types.includes('number'));

function typeEffect(before: string[], after: string[]): Effect {
  const widened = before.every((t) => covers(after, t));
  const narrowed = after.every((t) => covers(before, t));
  if (widened && !narrowed) return 'wider';
  if (narrowed && !widened) return 'narrower';
  return 'changed';
}

function boundEffect(keyword: string, before: unknown, after: unknown): Effect {
  const isMax = MAX_KEYWORDS.includes(keyword);
  if (before === undefined) return 'narrower';
  if (after === undefined) return 'wider';
  if (typeof before !== 'number' || typeof after !== 'number') return 'changed';
  return (isMax ? after < before : after > before) ? 'narrower' : 'wider';
}

const presenceEffect = (before: unknown, after: unknown): Effect =>
  before === undefined ? 'narrower' : after === undefined ? 'wider' : 'changed';

/** An open enum is a plain string whose known values the `x-paykit-open-enum` list gives (the card type). */
const isOpenEnum = (schema: Node): boolean => Array.isArray(schema[OPEN_ENUM]);

function enumValues(schema: Node): unknown[] | undefined {
  if (Array.isArray(schema[OPEN_ENUM])) return schema[OPEN_ENUM] as unknown[];
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  return undefined;
}

const show = (value: unknown): string => (value === undefined ? 'none' : JSON.stringify(value));
const listValues = (values: unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/** Merges the members of `allOf` into one schema, so that `allOf: [$ref Base, {properties}]` compares by property. */
function flatten(document: OpenApiDocument, schema: Node, depth = 0): Node {
  if (!Array.isArray(schema.allOf) || depth > 16) return schema;
  const { allOf, ...rest } = schema;
  const merged: Node = {};
  const properties: Node = {};
  const required = new Set<string>();
  for (const member of [...(allOf as unknown[]), rest]) {
    const resolved = resolveRef(document, member);
    if (!resolved) continue;
    const part = flatten(document, resolved.node, depth + 1);
    if (isNode(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) part.required.forEach((r) => required.add(String(r)));
    for (const [key, value] of Object.entries(part)) {
      if (key !== 'properties' && key !== 'required' && !(key in merged)) merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function emit(walk: SchemaWalk, difference: Omit<Difference, 'direction' | 'report' | 'filler'>): void {
  walk.out.push({
    ...difference,
    direction: walk.direction,
    ...(walk.report ? { report: true } : {}),
    ...(walk.filler ? { filler: true } : {}),
  });
}

/** Compares two schemas in the direction of the walk, reporting every difference it finds under `location`. */
export function compareSchema(walk: SchemaWalk, beforeValue: unknown, afterValue: unknown, location: string): void {
  const beforeRef = resolveRef(walk.before, beforeValue);
  const afterRef = resolveRef(walk.after, afterValue);
  if (!beforeRef || !afterRef) {
    if (!sameValue(beforeValue, afterValue)) {
      emit(walk, { kind: 'other-changed', location, keyword: 'schema', detail: `schema ${show(beforeValue)} -> ${show(afterValue)}` });
    }
    return;
  }
  const key = beforeRef.ref && afterRef.ref ? `${beforeRef.ref}|${afterRef.ref}` : undefined;
  if (key !== undefined) {
    if (walk.visited.has(key)) return;
    walk.visited.add(key);
  }
  try {
    compareResolved(walk, beforeRef, afterRef, location);
  } finally {
    if (key !== undefined) walk.visited.delete(key);
  }
}

function compareResolved(walk: SchemaWalk, beforeRef: Resolved, afterRef: Resolved, location: string): void {
  const name = afterRef.name ?? beforeRef.name;
  const here = name && !location.endsWith(`<${name}>`) ? `${location}<${name}>` : location;
  const before = flatten(walk.before, beforeRef.node);
  const after = flatten(walk.after, afterRef.node);

  compareDocumentation(walk, before, after, here);
  compareType(walk, before, after, here);
  const identifier = isIdentifier(beforeRef.name, beforeRef.node) && isIdentifier(afterRef.name, afterRef.node);
  compareConstraints(walk, before, after, here, identifier);
  compareEnum(walk, before, after, here);
  compareProperties(walk, before, after, here);
  compareAdditionalProperties(walk, before, after, here);
  if (before.items !== undefined || after.items !== undefined) compareSchema(walk, before.items, after.items, `${here}[]`);
  compareTuple(walk, before, after, here);
  for (const keyword of ['oneOf', 'anyOf'] as const) compareVariants(walk, before, after, here, keyword);
  compareDiscriminator(walk, before, after, here);
  for (const keyword of new Set([...Object.keys(before), ...Object.keys(after)])) {
    // Vendor extensions are notes for tools; the one that changes a promise (open enums) is judged with the enum.
    if (HANDLED.has(keyword) || keyword.startsWith('x-')) continue;
    if (!sameValue(before[keyword], after[keyword])) {
      emit(walk, { kind: 'other-changed', location: here, keyword, detail: `${keyword} ${show(before[keyword])} -> ${show(after[keyword])}` });
    }
  }
}

function compareDocumentation(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  for (const keyword of DOCUMENTATION_KEYWORDS) {
    if (!sameValue(before[keyword], after[keyword])) {
      emit(walk, { kind: 'documentation-changed', location: `${location} ${keyword}`, keyword, detail: `${keyword} changed` });
    }
  }
}

function compareType(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  const b = typeList(before);
  const a = typeList(after);
  if (sameValue(b, a)) return;
  emit(walk, {
    kind: 'type-changed',
    location,
    keyword: 'type',
    effect: typeEffect(b, a),
    detail: `type ${b.join('|') || 'any'} -> ${a.join('|') || 'any'}`,
  });
}

function compareConstraints(walk: SchemaWalk, before: Node, after: Node, location: string, identifier: boolean): void {
  for (const keyword of [...MAX_KEYWORDS, ...MIN_KEYWORDS, 'pattern', 'format', 'multipleOf', 'uniqueItems']) {
    const b = before[keyword];
    const a = after[keyword];
    if (sameValue(b, a)) continue;
    const effect =
      MAX_KEYWORDS.includes(keyword) || MIN_KEYWORDS.includes(keyword)
        ? boundEffect(keyword, b, a)
        : keyword === 'uniqueItems'
          ? a === true ? 'narrower' : 'wider'
          : presenceEffect(b, a);
    emit(walk, {
      kind: 'constraint-changed',
      location,
      keyword,
      effect,
      detail: `${keyword} ${show(b)} -> ${show(a)}`,
      ...(identifier ? { identifier: true, ...(typeof after.maxLength === 'number' ? { maxLengthAfter: after.maxLength } : {}) } : {}),
    });
  }
}

function compareEnum(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  const b = enumValues(before);
  const a = enumValues(after);
  if (b === undefined && a === undefined) return;
  if (b === undefined || a === undefined) {
    emit(walk, {
      kind: 'constraint-changed',
      location,
      keyword: 'enum',
      effect: b === undefined ? 'narrower' : 'wider',
      detail: b === undefined ? `enum ${listValues(a!)} introduced` : 'enum dropped',
    });
    return;
  }
  const added = a.filter((v) => !b.some((w) => sameValue(v, w)));
  const removed = b.filter((v) => !a.some((w) => sameValue(v, w)));
  if (added.length > 0) {
    emit(walk, {
      kind: 'enum-values-added',
      location,
      keyword: 'enum',
      open: isOpenEnum(after),
      detail: `enum value(s) ${listValues(added)} added${walk.direction === 'response' && !isOpenEnum(after) ? ' to an enum not marked open' : ''}`,
    });
  }
  if (removed.length > 0) {
    emit(walk, { kind: 'enum-values-removed', location, keyword: 'enum', detail: `enum value(s) ${listValues(removed)} removed` });
  }
  if (isOpenEnum(before) !== isOpenEnum(after)) {
    emit(walk, { kind: 'other-changed', location, keyword: OPEN_ENUM, detail: `${OPEN_ENUM} ${show(before[OPEN_ENUM])} -> ${show(after[OPEN_ENUM])}` });
  }
}

function compareProperties(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  const b = isNode(before.properties) ? before.properties : {};
  const a = isNode(after.properties) ? after.properties : {};
  const requiredBefore = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const requiredAfter = new Set(Array.isArray(after.required) ? after.required.map(String) : []);
  const names = new Set([...Object.keys(b), ...Object.keys(a), ...requiredBefore, ...requiredAfter]);
  for (const name of names) {
    const at = `${location}.${name}`;
    const inBefore = name in b;
    const inAfter = name in a;
    if (inBefore && !inAfter) {
      emit(walk, { kind: 'property-removed', location: at, detail: `property ${name} removed` });
      continue;
    }
    if (!inBefore && inAfter) {
      const required = requiredAfter.has(name);
      emit(walk, { kind: 'property-added', location: at, required, detail: `${required ? 'required' : 'optional'} property ${name} added` });
      continue;
    }
    if (requiredBefore.has(name) !== requiredAfter.has(name)) {
      const required = requiredAfter.has(name);
      emit(walk, {
        kind: 'property-required-changed',
        location: at,
        required,
        detail: required ? `property ${name} is now required` : `property ${name} is no longer required`,
      });
    }
    if (inBefore && inAfter) {
      const filler = walk.report && (isFillerColumn(name, b[name]) || isFillerColumn(name, a[name]));
      compareSchema(filler && !walk.filler ? { ...walk, filler: true } : walk, b[name], a[name], at);
    }
  }
  const common = Object.keys(b).filter((n) => n in a);
  const orderAfter = Object.keys(a).filter((n) => n in b);
  if (!sameValue(common, orderAfter)) {
    emit(walk, { kind: 'property-order-changed', location, detail: `order ${common.join(',')} -> ${orderAfter.join(',')}` });
  }
}

function compareAdditionalProperties(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  const b = before.additionalProperties;
  const a = after.additionalProperties;
  if (sameValue(b, a)) return;
  if (isNode(b) && isNode(a)) {
    compareSchema(walk, b, a, `${location}.*`);
    return;
  }
  const allows = (v: unknown): boolean => v !== false;
  const effect: Effect = allows(b) && !allows(a) ? 'narrower' : !allows(b) && allows(a) ? 'wider' : 'changed';
  emit(walk, { kind: 'constraint-changed', location, keyword: 'additionalProperties', effect, detail: `additionalProperties ${show(b)} -> ${show(a)}` });
}

function compareTuple(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  const b = Array.isArray(before.prefixItems) ? before.prefixItems : [];
  const a = Array.isArray(after.prefixItems) ? after.prefixItems : [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < b.length && i < a.length) compareSchema(walk, b[i], a[i], `${location}[${i}]`);
    else emit(walk, { kind: 'other-changed', location: `${location}[${i}]`, keyword: 'prefixItems', detail: `tuple item ${i} ${i < b.length ? 'removed' : 'added'}` });
  }
}

/** Variants are matched by component name when they are references, otherwise by position. */
function compareVariants(walk: SchemaWalk, before: Node, after: Node, location: string, keyword: 'oneOf' | 'anyOf'): void {
  const key = (doc: OpenApiDocument, v: unknown, i: number): string => resolveRef(doc, v)?.name ?? `#${i}`;
  const b = new Map((Array.isArray(before[keyword]) ? (before[keyword] as unknown[]) : []).map((v, i) => [key(walk.before, v, i), v]));
  const a = new Map((Array.isArray(after[keyword]) ? (after[keyword] as unknown[]) : []).map((v, i) => [key(walk.after, v, i), v]));
  for (const [name, value] of b) {
    const at = `${location} ${keyword} ${name}`;
    if (a.has(name)) compareSchema(walk, value, a.get(name), at);
    else emit(walk, { kind: 'variant-removed', location: at, keyword, detail: `${keyword} variant ${name} removed` });
  }
  for (const name of a.keys()) {
    if (!b.has(name)) emit(walk, { kind: 'variant-added', location: `${location} ${keyword} ${name}`, keyword, detail: `${keyword} variant ${name} added` });
  }
}

/**
 * A discriminator mapping that only gains values accepts more (it comes with a new variant); one that loses values
 * accepts less; a new property name or a mapping that points elsewhere is another contract.
 */
function compareDiscriminator(walk: SchemaWalk, before: Node, after: Node, location: string): void {
  const b = isNode(before.discriminator) ? before.discriminator : undefined;
  const a = isNode(after.discriminator) ? after.discriminator : undefined;
  if (sameValue(b, a)) return;
  const mapping = (d: Node | undefined): Node => (d && isNode(d.mapping) ? d.mapping : {});
  const mb = mapping(b);
  const ma = mapping(a);
  const samePropertyName = b !== undefined && a !== undefined && b.propertyName === a.propertyName;
  const kept = Object.keys(mb).every((k) => k in ma && sameValue(mb[k], ma[k]));
  const keptBack = Object.keys(ma).every((k) => k in mb && sameValue(ma[k], mb[k]));
  const effect: Effect = !samePropertyName ? 'changed' : kept ? 'wider' : keptBack ? 'narrower' : 'changed';
  const added = Object.keys(ma).filter((k) => !(k in mb));
  const removed = Object.keys(mb).filter((k) => !(k in ma));
  const parts = [added.length > 0 ? `mapping ${listValues(added)} added` : '', removed.length > 0 ? `mapping ${listValues(removed)} removed` : ''].filter(Boolean);
  emit(walk, {
    kind: 'constraint-changed',
    location,
    keyword: 'discriminator',
    effect,
    detail: `discriminator ${parts.join(', ') || `${show(b)} -> ${show(a)}`}`,
  });
}
