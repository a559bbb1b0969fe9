import type { Difference, Direction, Effect } from '../difference.js';
import type { WsdlModel } from './wsdl-model.js';
import { UNBOUNDED, type Attribute, type ChildElement, type ComplexType, type SimpleType, type XsdModel } from './xsd-model.js';

export interface SoapContract {
  wsdl: WsdlModel;
  xsd: XsdModel;
}

interface Walk {
  before: XsdModel;
  after: XsdModel;
  direction: Direction;
  visited: Set<string>;
  out: Difference[];
}

const MAX_FACETS = new Set(['maxLength', 'maxInclusive', 'maxExclusive', 'totalDigits', 'fractionDigits']);
const MIN_FACETS = new Set(['minLength', 'minInclusive', 'minExclusive']);
const showOccurs = (n: number): string => (n === UNBOUNDED ? 'unbounded' : String(n));

/** The namespace and address paths together play the role of a REST base path: they carry the major version. */
export const soapBase = (wsdl: WsdlModel): string => [wsdl.targetNamespace, ...wsdl.addressPaths].join(' ');

/** Every difference between two versions of a SOAP contract, judged element by element from each operation. */
export function compareSoap(before: SoapContract, after: SoapContract): Difference[] {
  const out: Difference[] = [];
  if (before.wsdl.targetNamespace !== after.wsdl.targetNamespace || before.xsd.targetNamespace !== after.xsd.targetNamespace) {
    out.push({ kind: 'base-path-changed', location: 'targetNamespace', detail: `namespace ${before.xsd.targetNamespace} -> ${after.xsd.targetNamespace}` });
  }
  if (before.wsdl.addressPaths.join() !== after.wsdl.addressPaths.join()) {
    out.push({ kind: 'base-path-changed', location: 'service addresses', detail: `addresses ${before.wsdl.addressPaths.join(',')} -> ${after.wsdl.addressPaths.join(',')}` });
  }
  const afterOperations = new Map(after.wsdl.operations.map((o) => [o.name, o]));
  for (const operation of before.wsdl.operations) {
    const next = afterOperations.get(operation.name);
    const location = `operation ${operation.name}`;
    if (!next) {
      out.push({ kind: 'operation-removed', location, detail: `${location} removed` });
      continue;
    }
    for (const [direction, key] of [['request', 'input'], ['response', 'output']] as const) {
      const walk: Walk = { before: before.xsd, after: after.xsd, direction, visited: new Set(), out };
      const b = operation[key];
      const a = next[key];
      if (b === a && b !== undefined) compareGlobalElement(walk, b, `${location} ${key} element ${b}`);
      else if (b !== a) out.push({ kind: 'other-changed', location: `${location} ${key}`, direction, keyword: 'message', detail: `${key} element ${b ?? 'none'} -> ${a ?? 'none'}` });
    }
  }
  const beforeNames = new Set(before.wsdl.operations.map((o) => o.name));
  for (const operation of after.wsdl.operations) {
    if (!beforeNames.has(operation.name)) out.push({ kind: 'path-added', location: `operation ${operation.name}`, detail: `operation ${operation.name} added` });
  }
  return out;
}

function compareGlobalElement(walk: Walk, name: string, location: string): void {
  const b = walk.before.elements.get(name);
  const a = walk.after.elements.get(name);
  if (!b || !a) {
    walk.out.push({ kind: 'property-removed', location, direction: walk.direction, detail: `global element ${name} ${b ? 'removed' : 'missing before'}` });
    return;
  }
  compareElement(walk, b, a, location);
}

function push(walk: Walk, difference: Omit<Difference, 'direction'>): void {
  walk.out.push({ ...difference, direction: walk.direction });
}

function compareElement(walk: Walk, before: ChildElement, after: ChildElement, location: string): void {
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

type Typed = Pick<ChildElement, 'type' | 'inlineComplex' | 'inlineSimple'>;

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

function lookup(model: XsdModel, typed: Typed): Found {
  if (typed.inlineComplex) return { kind: 'complex', complex: typed.inlineComplex };
  if (typed.inlineSimple) return { kind: 'simple', simple: typed.inlineSimple };
  const name = typed.type ?? 'xs:anyType';
  if (name.startsWith('element:')) {
    const element = model.elements.get(name.slice(8));
    if (element) return lookup(model, element);
  }
  const complex = model.complexTypes.get(name);
  if (complex) return { kind: 'complex', name, complex };
  const simple = model.simpleTypes.get(name);
  if (simple) return { kind: 'simple', name, simple };
  return { kind: 'builtin', name };
}

/** Children of a complex type including those inherited through `xs:extension`. */
function allChildren(model: XsdModel, type: ComplexType, depth = 0): ChildElement[] {
  const base = type.base && depth < 16 ? model.complexTypes.get(type.base) : undefined;
  return [...(base ? allChildren(model, base, depth + 1) : []), ...type.children];
}

function compareComplex(walk: Walk, before: ComplexType, after: ComplexType, location: string): void {
  if (before.documentation !== after.documentation) {
    push(walk, { kind: 'documentation-changed', location: `${location} documentation`, keyword: 'documentation', detail: 'documentation changed' });
  }
  if (before.simpleBase !== after.simpleBase) {
    push(walk, { kind: 'type-changed', location, keyword: 'simpleContent', effect: 'changed', detail: `text content ${before.simpleBase ?? 'none'} -> ${after.simpleBase ?? 'none'}` });
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
    push(walk, { kind: 'property-order-changed', location, ordered: before.ordered && after.ordered, detail: `order ${common.join(',')} -> ${orderAfter.join(',')}` });
  }
  compareAttributes(walk, before.attributes, after.attributes, location);
}

function compareAttributes(walk: Walk, before: Attribute[], after: Attribute[], location: string): void {
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

function compareSimple(walk: Walk, before: SimpleType, after: SimpleType, location: string): void {
  if (before.documentation !== after.documentation) {
    push(walk, { kind: 'documentation-changed', location: `${location} documentation`, keyword: 'documentation', detail: 'documentation changed' });
  }
  if (before.base !== after.base) {
    push(walk, { kind: 'type-changed', location, keyword: 'type', effect: 'changed', detail: `base type ${before.base} -> ${after.base}` });
  }
  for (const facet of new Set([...Object.keys(before.facets), ...Object.keys(after.facets)])) {
    const b = before.facets[facet];
    const a = after.facets[facet];
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
