import { childrenNamed, parseXml, type XmlElement } from './xml-reader.js';

const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';
export const UNBOUNDED = Number.POSITIVE_INFINITY;

/** A type as an element or attribute names it: `xs:string` for a built-in type, the local name for our own. */
export type TypeName = string;

export interface SimpleType {
  base: TypeName;
  /** Restriction facets: `pattern`, `maxLength`, `enumeration` (every value)... */
  facets: Record<string, string[]>;
  documentation: string;
}

export interface ChildElement {
  name: string;
  minOccurs: number;
  maxOccurs: number;
  type?: TypeName;
  inlineComplex?: ComplexType;
  inlineSimple?: SimpleType;
  documentation: string;
}

export interface Attribute {
  name: string;
  type?: TypeName;
  inlineSimple?: SimpleType;
  required: boolean;
}

export interface ComplexType {
  /** `xs:extension base`: the base type's children come first. */
  base?: TypeName;
  /** Text content type of `xs:simpleContent`. */
  simpleBase?: TypeName;
  children: ChildElement[];
  attributes: Attribute[];
  /** The children form an `xs:sequence`, whose order matters on the wire. */
  ordered: boolean;
  documentation: string;
}

export interface XsdModel {
  targetNamespace: string;
  elements: Map<string, ChildElement>;
  complexTypes: Map<string, ComplexType>;
  simpleTypes: Map<string, SimpleType>;
}

function documentationOf(element: XmlElement): string {
  return childrenNamed(element, 'annotation')
    .flatMap((a) => childrenNamed(a, 'documentation'))
    .map((d) => d.text.replace(/\s+/g, ' ').trim())
    .join(' ');
}

function occurs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return value === 'unbounded' ? UNBOUNDED : Number(value);
}

class Reader {
  constructor(private readonly namespaces: Map<string, string>) {}

  typeName(qualified: string | undefined): TypeName | undefined {
    if (qualified === undefined) return undefined;
    const colon = qualified.indexOf(':');
    const prefix = colon < 0 ? '' : qualified.slice(0, colon);
    const local = qualified.slice(colon + 1);
    return this.namespaces.get(prefix) === XSD_NAMESPACE ? `xs:${local}` : local;
  }

  simpleType(element: XmlElement): SimpleType {
    const restriction = childrenNamed(element, 'restriction')[0];
    const facets: Record<string, string[]> = {};
    for (const facet of restriction?.children ?? []) {
      if (facet.local === 'annotation' || facet.attributes.value === undefined) continue;
      (facets[facet.local] ??= []).push(facet.attributes.value);
    }
    const list = childrenNamed(element, 'list')[0];
    const base = restriction
      ? this.typeName(restriction.attributes.base)
      : list
        ? `list of ${this.typeName(list.attributes.itemType) ?? 'inline type'}`
        : 'union';
    return { base: base ?? 'xs:anySimpleType', facets, documentation: documentationOf(element) };
  }

  /** Children of a model group; the alternatives of a choice are each optional. */
  particles(group: XmlElement, optional: boolean): ChildElement[] {
    const out: ChildElement[] = [];
    const groupOptional = optional || group.local === 'choice' || group.attributes.minOccurs === '0';
    for (const child of group.children) {
      if (child.local === 'element') {
        const element = this.element(child);
        out.push(groupOptional ? { ...element, minOccurs: 0 } : element);
      } else if (['sequence', 'choice', 'all'].includes(child.local)) {
        out.push(...this.particles(child, groupOptional));
      }
    }
    return out;
  }

  complexType(element: XmlElement): ComplexType {
    const type: ComplexType = { children: [], attributes: [], ordered: true, documentation: documentationOf(element) };
    let content = element;
    const complexContent = childrenNamed(element, 'complexContent')[0];
    const simpleContent = childrenNamed(element, 'simpleContent')[0];
    const derivation = (complexContent ?? simpleContent)?.children.find((c) => c.local === 'extension' || c.local === 'restriction');
    if (derivation) {
      content = derivation;
      const base = this.typeName(derivation.attributes.base);
      if (simpleContent) type.simpleBase = base;
      else if (derivation.local === 'extension') type.base = base;
    }
    for (const child of content.children) {
      if (['sequence', 'choice', 'all'].includes(child.local)) {
        type.children.push(...this.particles(child, false));
        if (child.local !== 'sequence') type.ordered = false;
      } else if (child.local === 'attribute') {
        const inline = childrenNamed(child, 'simpleType')[0];
        type.attributes.push({
          name: child.attributes.name ?? this.typeName(child.attributes.ref) ?? '?',
          type: this.typeName(child.attributes.type),
          ...(inline ? { inlineSimple: this.simpleType(inline) } : {}),
          required: child.attributes.use === 'required',
        });
      }
    }
    return type;
  }

  element(element: XmlElement): ChildElement {
    const complex = childrenNamed(element, 'complexType')[0];
    const simple = childrenNamed(element, 'simpleType')[0];
    const name = element.attributes.name ?? this.typeName(element.attributes.ref) ?? '?';
    return {
      name,
      minOccurs: occurs(element.attributes.minOccurs, 1),
      maxOccurs: occurs(element.attributes.maxOccurs, 1),
      // An element declared by `ref` has the type of the global element it points to.
      type: this.typeName(element.attributes.type) ?? (element.attributes.ref ? `element:${name}` : undefined),
      ...(complex ? { inlineComplex: this.complexType(complex) } : {}),
      ...(simple ? { inlineSimple: this.simpleType(simple) } : {}),
      documentation: documentationOf(element),
    };
  }
}

/** Reads the declarations of one XSD document (global elements, complex and simple types). */
export function readXsd(source: string): XsdModel {
  const root = parseXml(source);
  if (root.local !== 'schema') throw new Error(`not an XML Schema: root element is <${root.name}>`);
  const namespaces = new Map<string, string>();
  for (const [attribute, value] of Object.entries(root.attributes)) {
    if (attribute === 'xmlns') namespaces.set('', value);
    else if (attribute.startsWith('xmlns:')) namespaces.set(attribute.slice(6), value);
  }
  const reader = new Reader(namespaces);
  const model: XsdModel = {
    targetNamespace: root.attributes.targetNamespace ?? '',
    elements: new Map(),
    complexTypes: new Map(),
    simpleTypes: new Map(),
  };
  for (const child of root.children) {
    const name = child.attributes.name;
    if (name === undefined) continue;
    if (child.local === 'element') model.elements.set(name, reader.element(child));
    else if (child.local === 'complexType') model.complexTypes.set(name, reader.complexType(child));
    else if (child.local === 'simpleType') model.simpleTypes.set(name, reader.simpleType(child));
  }
  return model;
}
