import {
  addressPath,
  elementsOf,
  findComplexType,
  findElement,
  findSimpleType,
  isBuiltIn,
  type AttributeDeclaration,
  type ComplexType,
  type ElementDeclaration,
  type QName,
  type SimpleType,
  type SoapContractModel,
} from '@paykit/contracts';
import type { Difference, Direction, Effect } from '../difference.js';

interface Walk {
  before: SoapContractModel;
  after: SoapContractModel;
  direction: Direction;
  visited: Set<string>;
  out: Difference[];
}

const MAX_FACETS = new Set(['maxLength', 'maxInclusive', 'maxExclusive', 'totalDigits', 'fractionDigits']);
const MIN_FACETS = new Set(['minLength', 'minInclusive', 'minExclusive']);
const showOccurs = (n: number): string => (n === Infinity ? 'unbounded' : String(n));

/** A type as locations and messages name it: `xs:string` for a built-in type, the local name for the contract's own. */
const typeLabel = (name: QName): string => (isBuiltIn(name) ? `xs:${name.name}` : name.name);

/** Paths of the port addresses, sorted (hosts differ per environment and are left out). */
const addressPaths = (model: SoapContractModel): string[] =>
  model.services.flatMap((s) => s.ports.flatMap((p) => (p.address ? [addressPath(p.address.location)] : []))).sort();

/** The WSDL's namespace and those of the schemas that declare the messages. */
const namespaces = (model: SoapContractModel): string =>
  [...new Set([model.targetNamespace, ...model.schemas.filter((s) => s.declares).map((s) => s.targetNamespace)])].join(' ');

/** The namespace and address paths together play the role of a REST base path: they carry the major version. */
export const soapBase = (model: SoapContractModel): string => [model.targetNamespace, ...addressPaths(model)].join(' ');

/** Every difference between two versions of a SOAP contract, judged element by element from each operation. */
export function compareSoap(before: SoapContractModel, after: SoapContractModel): Difference[] {
  const out: Difference[] = [];
  if (namespaces(before) !== namespaces(after)) {
    out.push({ kind: 'base-path-changed', location: 'targetNamespace', detail: `namespace ${namespaces(before)} -> ${namespaces(after)}` });
  }
  if (addressPaths(before).join() !== addressPaths(after).join()) {
    out.push({ kind: 'base-path-changed', location: 'service addresses', detail: `addresses ${addressPaths(before).join(',')} -> ${addressPaths(after).join(',')}` });
  }
  const afterOperations = new Map(after.operations.map((o) => [o.name, o]));
  for (const operation of before.operations) {
    const next = afterOperations.get(operation.name);
    const location = `operation ${operation.name}`;
    if (!next) {
      out.push({ kind: 'operation-removed', location, detail: `${location} removed` });
      continue;
    }
    for (const [direction, key] of [['request', 'input'], ['response', 'output']] as const) {
      const walk: Walk = { before, after, direction, visited: new Set(), out };
      const b = operation[key];
      const a = next[key];
      if (b && a && b.name === a.name) compareGlobalElement(walk, b, a, `${location} ${key} element ${b.name}`);
      else if (b?.name !== a?.name) out.push({ kind: 'other-changed', location: `${location} ${key}`, direction, keyword: 'message', detail: `${key} element ${b?.name ?? 'none'} -> ${a?.name ?? 'none'}` });
    }
  }
  const beforeNames = new Set(before.operations.map((o) => o.name));
  for (const operation of after.operations) {
    if (!beforeNames.has(operation.name)) out.push({ kind: 'path-added', location: `operation ${operation.name}`, detail: `operation ${operation.name} added` });
  }
  return out;
}

function compareGlobalElement(walk: Walk, before: QName, after: QName, location: string): void {
  const b = findElement(walk.before, before);
  const a = findElement(walk.after, after);
  if (!b || !a) {
    walk.out.push({ kind: 'property-removed', location, direction: walk.direction, detail: `global element ${after.name} ${b ? 'removed' : 'missing before'}` });
    return;
  }
  compareElement(walk, b, a, location);
}

function push(walk: Walk, difference: Omit<Difference, 'direction'>): void {
  walk.out.push({ ...difference, direction: walk.direction });
}

function compareElement(walk: Walk, before: ElementDeclaration, after: ElementDeclaration, location: string): void {
  if (before.documentation !== after.documentation) {
    push(walk, { kind: 'documentation-changed', location: `${location} documentation`, keyword: 'documentation', detail: 'documentation changed' });
  }
  if ((before.minOccurs >= 1) !== (after.minOccurs >= 1)) {
    const required = after.minOccurs >= 1;
    push(walk, { kind: 'property-required-changed', location, keyword: 'minOccurs', required, detail: `minOccurs ${before.minOccurs} -> ${after.minOccurs}` });
  } else if (before.minOccurs !== after.minOccurs) {
    push(walk, { kind: 'constraint-changed', location, keyword: 'minOccurs', effect: after.minOccurs > before.minOccurs ? 'narrower' : 'wider', detail: `minOccurs ${before.minOccurs} -> ${after.minOccurs}` });
  }
  if (before.maxOccurs !== after.maxOccurs) {
    push(walk, {
      kind: 'constraint-changed',
      location,
      keyword: 'maxOccurs',
      effect: after.maxOccurs < before.maxOccurs ? 'narrower' : 'wider',
      detail: `maxOccurs ${showOccurs(before.maxOccurs)} -> ${showOccurs(after.maxOccurs)}`,
    });
  }
  compareTypes(walk, before, after, location);
}

type Typed = ElementDeclaration | AttributeDeclaration;

/**
 * Compares what two declarations contain, following named types (each pair once per walk: recursion-safe). A
 * renamed complex or simple type is not a difference by itself: in document/literal messages type names never
 * travel, only their content, which is compared.
 */
function compareTypes(walk: Walk, before: Typed, after: Typed, location: string): void {
  const b = lookup(walk.before, before);
  const a = lookup(walk.after, after);
  if (b.kind !== a.kind || (b.kind === 'builtin' && b.name !== a.name)) {
    push(walk, { kind: 'type-changed', location, keyword: 'type', effect: 'changed', detail: `type ${b.name} -> ${a.name}` });
    return;
  }
  const here = a.name && b.kind !== 'builtin' ? `${location}<${a.name}>` : location;
  if (b.name && a.name) {
    const key = `${b.name}|${a.name}`;
    if (walk.visited.has(key)) return;
    walk.visited.add(key);
  }
  if (b.kind === 'complex' && a.kind === 'complex') compareComplex(walk, b.complex, a.complex, here);
  if (b.kind === 'simple' && a.kind === 'simple') compareSimple(walk, b.simple, a.simple, here);
}

type Found =
  | { kind: 'builtin'; name: string }
  | { kind: 'complex'; name?: string; complex: ComplexType }
  | { kind: 'simple'; name?: string; simple: SimpleType };

function lookup(model: SoapContractModel, typed: Typed): Found {
  if (typed.inlineType?.kind === 'complex') return { kind: 'complex', complex: typed.inlineType };
  if (typed.inlineType) return { kind: 'simple', simple: typed.inlineType };
  // An element declared by `ref` has the type of the global element it points to.
  const referred = 'kind' in typed && typed.ref ? findElement(model, typed.ref) : undefined;
  if (referred) return lookup(model, referred);
  if (!typed.type) return { kind: 'builtin', name: 'xs:anyType' };
  const name = typeLabel(typed.type);
  const complex = findComplexType(model, typed.type);
  if (complex) return { kind: 'complex', name, complex };
  const simple = findSimpleType(model, typed.type);
  if (simple) return { kind: 'simple', name, simple };
  return { kind: 'builtin', name };
}

/**
 * Child elements of a complex type including those inherited through `xs:extension`; the alternatives of a choice,
 * and the elements of an optional group, are each optional.
 */
function allChildren(model: SoapContractModel, type: ComplexType, depth = 0): ElementDeclaration[] {
  const derivation = type.derivation;
  const inherits = derivation?.content === 'complex' && derivation.method === 'extension' && depth < 16;
  const base = inherits ? findComplexType(model, derivation.base) : undefined;
  const own = elementsOf(type.group).map(({ element, inOptionalGroup }) => (inOptionalGroup ? { ...element, minOccurs: 0 } : element));
  return [...(base ? allChildren(model, base, depth + 1) : []), ...own];
}

/** The type of a complex type's text content (`xs:simpleContent`), if it has one. */
const simpleBase = (type: ComplexType): string | undefined => (type.derivation?.content === 'simple' ? typeLabel(type.derivation.base) : undefined);

/** Whether the children form an `xs:sequence`, whose order matters on the wire. */
const ordered = (type: ComplexType): boolean => !type.group || type.group.compositor === 'sequence';

function compareComplex(walk: Walk, before: ComplexType, after: ComplexType, location: string): void {
  if (before.documentation !== after.documentation) {
    push(walk, { kind: 'documentation-changed', location: `${location} documentation`, keyword: 'documentation', detail: 'documentation changed' });
  }
  if (simpleBase(before) !== simpleBase(after)) {
    push(walk, { kind: 'type-changed', location, keyword: 'simpleContent', effect: 'changed', detail: `text content ${simpleBase(before) ?? 'none'} -> ${simpleBase(after) ?? 'none'}` });
  }
  const b = allChildren(walk.before, before);
  const a = allChildren(walk.after, after);
  const afterByName = new Map(a.map((c) => [c.name, c]));
  const beforeNames = new Set(b.map((c) => c.name));
  for (const child of b) {
    const at = `${location}.${child.name}`;
    const next = afterByName.get(child.name);
    if (next) compareElement(walk, child, next, at);
    else push(walk, { kind: 'property-removed', location: at, detail: `element ${child.name} removed` });
  }
  for (const child of a) {
    if (beforeNames.has(child.name)) continue;
    const required = child.minOccurs >= 1;
    push(walk, { kind: 'property-added', location: `${location}.${child.name}`, required, detail: `${required ? 'required' : 'optional'} element ${child.name} added` });
  }
  const common = b.map((c) => c.name).filter((n) => afterByName.has(n));
  const orderAfter = a.map((c) => c.name).filter((n) => beforeNames.has(n));
  if (common.join() !== orderAfter.join()) {
    push(walk, { kind: 'property-order-changed', location, ordered: ordered(before) && ordered(after), detail: `order ${common.join(',')} -> ${orderAfter.join(',')}` });
  }
  compareAttributes(walk, before.attributes, after.attributes, location);
}

function compareAttributes(walk: Walk, before: AttributeDeclaration[], after: AttributeDeclaration[], location: string): void {
  const afterByName = new Map(after.map((a) => [a.name, a]));
  for (const attribute of before) {
    const at = `${location}@${attribute.name}`;
    const next = afterByName.get(attribute.name);
    if (!next) {
      push(walk, { kind: 'property-removed', location: at, detail: `attribute ${attribute.name} removed` });
      continue;
    }
    if (attribute.required !== next.required) {
      push(walk, { kind: 'property-required-changed', location: at, required: next.required, detail: `attribute ${attribute.name} is ${next.required ? 'now' : 'no longer'} required` });
    }
    compareTypes(walk, attribute, next, at);
  }
  const beforeNames = new Set(before.map((a) => a.name));
  for (const attribute of after) {
    if (beforeNames.has(attribute.name)) continue;
    push(walk, { kind: 'property-added', location: `${location}@${attribute.name}`, required: attribute.required, detail: `${attribute.required ? 'required' : 'optional'} attribute ${attribute.name} added` });
  }
}

function facetEffect(facet: string, before: string[] | undefined, after: string[] | undefined): Effect {
  if (before === undefined) return 'narrower';
  if (after === undefined) return 'wider';
  if (MAX_FACETS.has(facet) || MIN_FACETS.has(facet)) {
    const lower = Number(after[0]) < Number(before[0]);
    return MAX_FACETS.has(facet) === lower ? 'narrower' : 'wider';
  }
  return 'changed';
}

/** What a simple type derives from: its restriction base, `list of <item type>` or `union`. */
function simpleBaseOf(type: SimpleType): string {
  if (type.variety === 'list') return `list of ${type.itemType ? typeLabel(type.itemType) : 'inline type'}`;
  if (type.variety === 'union') return 'union';
  return type.base ? typeLabel(type.base) : 'xs:anySimpleType';
}

/** The values of each facet, by facet name (`enumeration` and `pattern` may repeat). */
function facetsOf(type: SimpleType): Record<string, string[]> {
  const facets: Record<string, string[]> = {};
  for (const facet of type.facets) (facets[facet.name] ??= []).push(facet.value);
  return facets;
}

function compareSimple(walk: Walk, before: SimpleType, after: SimpleType, location: string): void {
  if (before.documentation !== after.documentation) {
    push(walk, { kind: 'documentation-changed', location: `${location} documentation`, keyword: 'documentation', detail: 'documentation changed' });
  }
  if (simpleBaseOf(before) !== simpleBaseOf(after)) {
    push(walk, { kind: 'type-changed', location, keyword: 'type', effect: 'changed', detail: `base type ${simpleBaseOf(before)} -> ${simpleBaseOf(after)}` });
  }
  const facetsBefore = facetsOf(before);
  const facetsAfter = facetsOf(after);
  for (const facet of new Set([...Object.keys(facetsBefore), ...Object.keys(facetsAfter)])) {
    const b = facetsBefore[facet];
    const a = facetsAfter[facet];
    if ((b ?? []).join('\n') === (a ?? []).join('\n')) continue;
    if (facet === 'enumeration' && b && a) {
      const added = a.filter((v) => !b.includes(v));
      const removed = b.filter((v) => !a.includes(v));
      if (added.length > 0) push(walk, { kind: 'enum-values-added', location, keyword: 'enumeration', open: false, detail: `enumeration value(s) ${added.join(', ')} added` });
      if (removed.length > 0) push(walk, { kind: 'enum-values-removed', location, keyword: 'enumeration', detail: `enumeration value(s) ${removed.join(', ')} removed` });
      continue;
    }
    push(walk, { kind: 'constraint-changed', location, keyword: facet, effect: facetEffect(facet, b, a), detail: `${facet} ${b?.join('|') ?? 'none'} -> ${a?.join('|') ?? 'none'}` });
  }
}
