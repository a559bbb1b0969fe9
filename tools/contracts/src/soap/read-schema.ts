import { dirname, resolve } from 'node:path';
import type {
  AttributeDeclaration,
  ComplexType,
  ElementDeclaration,
  Facet,
  Global,
  ModelGroup,
  Particle,
  QName,
  Schema,
  SimpleType,
  Source,
} from './model.js';
import { PAYKIT_XSD_NS, readMarkValue, SENSITIVE_KINDS, type SensitiveKind } from '../sensitive/kinds.js';
import { childrenOf, ContractError, documentationOf, readXmlFile, resolveQName, where, XSD_NS, type XmlNode } from './xml.js';

/** The XSD part of a contract: every schema read, and their global declarations in the order read. */
export interface SchemaSet {
  schemas: Schema[];
  elements: Global<ElementDeclaration>[];
  complexTypes: Global<ComplexType>[];
  simpleTypes: Global<SimpleType>[];
}

/** A QName written in the contract that must name a declaration, kept to be checked once everything is read. */
export interface Reference {
  kind: 'type' | 'element' | 'attribute' | 'message' | 'portType' | 'binding';
  name: QName;
  /** The value as written, e.g. `fx:FileName`. */
  written: string;
  source: Source;
}

const compositors = new Set(['sequence', 'choice', 'all']);

export function notRead(node: XmlNode, what: string): never {
  throw new ContractError(`${where(node)}: ${what} is not supported by the contract reader`);
}

function occurs(node: XmlNode, attribute: 'minOccurs' | 'maxOccurs'): number {
  const value = node.attributes[attribute];
  if (value === undefined) return 1;
  if (value === 'unbounded' && attribute === 'maxOccurs') return Infinity;
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < 0) throw new ContractError(`${where(node)}: invalid ${attribute}="${value}"`);
  return number;
}

/** The `<paykit:sensitive>` marks in a declaration's `xs:annotation/xs:appinfo`. */
function paykitMarks(node: XmlNode): XmlNode[] {
  return childrenOf(node, XSD_NS, 'annotation')
    .flatMap((annotation) => childrenOf(annotation, XSD_NS, 'appinfo'))
    .flatMap((appinfo) => childrenOf(appinfo, PAYKIT_XSD_NS, 'sensitive'));
}

/** An element's mark: its text is a kind or `false`; one mark per element. */
function sensitiveMark(node: XmlNode): SensitiveKind | false | undefined {
  const marks = paykitMarks(node);
  if (marks.length === 0) return undefined;
  if (marks.length > 1) throw new ContractError(`${where(marks[1]!)}: an element takes one <sensitive> mark`);
  const text = marks[0]!.text.trim();
  const read = readMarkValue(text === 'false' ? false : text);
  if ('problem' in read) throw new ContractError(`${where(marks[0]!)}: <sensitive> must hold one of ${SENSITIVE_KINDS.join(', ')}, or false, not ${JSON.stringify(text)}`);
  return read.state;
}

/** Marks are read on element declarations only: one anywhere else would be read by nobody. */
function refuseMark(node: XmlNode): void {
  const [mark] = paykitMarks(node);
  if (mark) throw new ContractError(`${where(mark)}: a <sensitive> mark goes on an element declaration, not on an ${node.local}`);
}

/** Reads the declarations of a set of schema elements; every QName they use is added to `references`. */
class DeclarationReader {
  constructor(private readonly references: Reference[]) {}

  private refer(kind: Reference['kind'], node: XmlNode, written: string): QName {
    const name = resolveQName(node, written);
    this.references.push({ kind, name, written, source: where(node) });
    return name;
  }

  /** The name, `ref=` and `type=` of an element or attribute declaration. */
  private naming(node: XmlNode, kind: 'element' | 'attribute'): { name: string; ref?: QName; type?: QName } {
    const ref = node.attributes.ref === undefined ? undefined : this.refer(kind, node, node.attributes.ref);
    const name = node.attributes.name ?? ref?.name;
    if (name === undefined) throw new ContractError(`${where(node)}: an ${kind} needs a name or a ref`);
    const type = node.attributes.type === undefined ? undefined : this.refer('type', node, node.attributes.type);
    return { name, ...(ref ? { ref } : {}), ...(type ? { type } : {}) };
  }

  element(node: XmlNode): ElementDeclaration {
    const declaration: ElementDeclaration = {
      kind: 'element',
      ...this.naming(node, 'element'),
      minOccurs: occurs(node, 'minOccurs'),
      maxOccurs: occurs(node, 'maxOccurs'),
      nillable: node.attributes.nillable === 'true',
      documentation: documentationOf(node),
      source: where(node),
    };
    const sensitive = sensitiveMark(node);
    if (sensitive !== undefined) declaration.sensitive = sensitive;
    const complex = childrenOf(node, XSD_NS, 'complexType')[0];
    const simple = childrenOf(node, XSD_NS, 'simpleType')[0];
    if (complex) declaration.inlineType = this.complexType(complex);
    else if (simple) declaration.inlineType = this.simpleType(simple);
    return declaration;
  }

  attribute(node: XmlNode): AttributeDeclaration {
    refuseMark(node);
    const declaration: AttributeDeclaration = {
      ...this.naming(node, 'attribute'),
      required: node.attributes.use === 'required',
      documentation: documentationOf(node),
      source: where(node),
    };
    const simple = childrenOf(node, XSD_NS, 'simpleType')[0];
    if (simple) declaration.inlineType = this.simpleType(simple);
    return declaration;
  }

  group(node: XmlNode): ModelGroup {
    const particles: Particle[] = [];
    for (const child of childrenOf(node, XSD_NS)) {
      if (child.local === 'annotation') continue;
      if (child.local === 'element') particles.push(this.element(child));
      else if (compositors.has(child.local)) particles.push(this.group(child));
      else notRead(child, `<xs:${child.local}> in a model group`);
    }
    return {
      kind: 'group',
      compositor: node.local as ModelGroup['compositor'],
      minOccurs: occurs(node, 'minOccurs'),
      maxOccurs: occurs(node, 'maxOccurs'),
      particles,
      source: where(node),
    };
  }

  /** The model group and attributes of a complex type or of its derivation. */
  private content(node: XmlNode, into: ComplexType): void {
    for (const child of childrenOf(node, XSD_NS)) {
      if (child.local === 'annotation') continue;
      if (compositors.has(child.local)) {
        if (into.group) throw new ContractError(`${where(child)}: a complex type holds one model group`);
        into.group = this.group(child);
      } else if (child.local === 'attribute') into.attributes.push(this.attribute(child));
      else if ((child.local === 'complexContent' || child.local === 'simpleContent') && node.local === 'complexType') {
        this.derivation(child, into);
      } else notRead(child, `<xs:${child.local}> in a complex type`);
    }
  }

  private derivation(content: XmlNode, into: ComplexType): void {
    const derived = childrenOf(content, XSD_NS).find((c) => c.local === 'extension' || c.local === 'restriction');
    if (!derived || derived.attributes.base === undefined) throw new ContractError(`${where(content)}: needs an extension or restriction with a base`);
    into.derivation = {
      content: content.local === 'simpleContent' ? 'simple' : 'complex',
      method: derived.local as 'extension' | 'restriction',
      base: this.refer('type', derived, derived.attributes.base),
      source: where(derived),
    };
    if (content.attributes.mixed === 'true') into.mixed = true;
    this.content(derived, into);
  }

  complexType(node: XmlNode): ComplexType {
    refuseMark(node);
    const type: ComplexType = {
      kind: 'complex',
      documentation: documentationOf(node),
      attributes: [],
      mixed: node.attributes.mixed === 'true',
      source: where(node),
    };
    if (node.attributes.name !== undefined) type.name = node.attributes.name;
    this.content(node, type);
    return type;
  }

  simpleType(node: XmlNode): SimpleType {
    refuseMark(node);
    const type: SimpleType = { kind: 'simple', documentation: documentationOf(node), variety: 'restriction', memberTypes: [], facets: [], source: where(node) };
    if (node.attributes.name !== undefined) type.name = node.attributes.name;
    const restriction = childrenOf(node, XSD_NS, 'restriction')[0];
    const list = childrenOf(node, XSD_NS, 'list')[0];
    const union = childrenOf(node, XSD_NS, 'union')[0];
    if (restriction) {
      if (restriction.attributes.base !== undefined) type.base = this.refer('type', restriction, restriction.attributes.base);
      type.facets = childrenOf(restriction, XSD_NS)
        .filter((facet) => facet.local !== 'annotation' && facet.local !== 'simpleType')
        .map((facet): Facet => ({ name: facet.local, value: facet.attributes.value ?? '', source: where(facet) }));
    } else if (list) {
      type.variety = 'list';
      if (list.attributes.itemType !== undefined) type.itemType = this.refer('type', list, list.attributes.itemType);
    } else if (union) {
      type.variety = 'union';
      const members = (union.attributes.memberTypes ?? '').split(/\s+/).filter(Boolean);
      type.memberTypes = members.map((member) => this.refer('type', union, member));
    } else throw new ContractError(`${where(node)}: a simple type needs a restriction, a list or a union`);
    return type;
  }
}

interface CollectedSchema {
  node: XmlNode;
  targetNamespace: string;
}

/** A schema and, depth first, every schema it imports or includes (each file once; `loaded` holds the paths read). */
async function collect(schema: XmlNode, targetNamespace: string, loaded: Set<string>, into: CollectedSchema[]): Promise<void> {
  into.push({ node: schema, targetNamespace });
  for (const reference of childrenOf(schema, XSD_NS).filter((c) => c.local === 'import' || c.local === 'include')) {
    const location = reference.attributes.schemaLocation;
    if (location === undefined) {
      if (reference.local === 'import' && reference.attributes.namespace === XSD_NS) continue;
      throw new ContractError(`${where(reference)}: an ${reference.local} without schemaLocation cannot be resolved offline`);
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) throw new ContractError(`${where(reference)}: remote schemaLocation "${location}": keep the contract local`);
    const path = resolve(dirname(reference.file), location);
    if (loaded.has(path)) continue;
    loaded.add(path);
    const imported = await readXmlFile(path);
    if (imported.uri !== XSD_NS || imported.local !== 'schema') throw new ContractError(`${path}: the root element must be <xs:schema>`);
    // An included schema without a target namespace takes the including schema's ("chameleon" include).
    const namespace = imported.attributes.targetNamespace ?? (reference.local === 'include' ? targetNamespace : '');
    await collect(imported, namespace, loaded, into);
  }
}

const declaresAnything = (node: XmlNode) => childrenOf(node, XSD_NS).some((c) => !['import', 'include', 'annotation'].includes(c.local));

/**
 * Reads the schemas inline in a WSDL's `wsdl:types` and every schema they import or include, from the files beside
 * them (never over the network). The QNames the declarations use are added to `references` for the caller to check.
 */
export async function readSchemas(inline: XmlNode[], loaded: Set<string>, references: Reference[]): Promise<SchemaSet> {
  const collected: CollectedSchema[] = [];
  for (const schema of inline) await collect(schema, schema.attributes.targetNamespace ?? '', loaded, collected);
  const reader = new DeclarationReader(references);
  const set: SchemaSet = { schemas: [], elements: [], complexTypes: [], simpleTypes: [] };
  const declared = new Map<string, Source>();
  const declare = (symbolSpace: string, namespace: string, node: XmlNode) => {
    const name = node.attributes.name;
    if (name === undefined) throw new ContractError(`${where(node)}: a global declaration needs a name`);
    const key = `${symbolSpace} {${namespace}}${name}`;
    const earlier = declared.get(key);
    if (earlier) throw new ContractError(`${where(node)}: ${name} is declared twice (first at ${earlier})`);
    declared.set(key, where(node));
    return { name, namespace };
  };
  for (const { node, targetNamespace } of collected) {
    set.schemas.push({
      file: node.file,
      targetNamespace,
      elementFormDefault: node.attributes.elementFormDefault === 'qualified' ? 'qualified' : 'unqualified',
      declares: declaresAnything(node),
    });
    for (const child of childrenOf(node, XSD_NS)) {
      if (child.local === 'element') set.elements.push({ ...reader.element(child), ...declare('element', targetNamespace, child) });
      else if (child.local === 'complexType') set.complexTypes.push({ ...reader.complexType(child), ...declare('type', targetNamespace, child) });
      else if (child.local === 'simpleType') set.simpleTypes.push({ ...reader.simpleType(child), ...declare('type', targetNamespace, child) });
      else if (!['import', 'include', 'annotation'].includes(child.local)) notRead(child, `<xs:${child.local}> at the top of a schema`);
    }
  }
  return set;
}
