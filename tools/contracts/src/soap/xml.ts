import { readFile } from 'node:fs/promises';
import sax from 'sax';

/** One XML element with its namespace resolved: enough to read a WSDL or an XSD. */
export interface XmlNode {
  /** Namespace URI of the element ('' when none). */
  uri: string;
  local: string;
  /** Attributes by their local name (WSDL and XSD attributes are unqualified); namespace declarations left out. */
  attributes: Record<string, string>;
  /** Prefix -> namespace URI in scope at this element, to resolve QName values such as `type="fx:File"`. */
  namespaces: Record<string, string>;
  children: XmlNode[];
  text: string;
  /** Where the element came from, for error messages. */
  file: string;
  line: number;
}

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
export const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';

/** A contract file that is not well-formed XML, or that does not hold together as a WSDL or an XSD. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
}

/**
 * Parses a contract file into an element tree, namespace-aware (sax, strict). Errors name the file, line and column.
 * Comments and processing instructions are dropped; text and CDATA are kept in `text`.
 */
export function parseXml(xml: string, file: string): XmlNode {
  const parser = sax.parser(true, { xmlns: true, position: true });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  const fail = (message: string): never => {
    throw new ContractError(`${file}:${parser.line + 1}:${parser.column + 1}: not well-formed XML: ${message}`);
  };
  parser.onerror = (error) => fail(error.message.split('\n')[0]!.toLowerCase());
  parser.onopentag = (tag) => {
    const qualified = tag as sax.QualifiedTag;
    if (stack.length === 0 && root) fail(`second root element <${qualified.name}>`);
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(qualified.attributes)) {
      if (attribute.prefix !== 'xmlns' && attribute.name !== 'xmlns') attributes[attribute.local] = attribute.value;
    }
    const node: XmlNode = {
      uri: qualified.uri,
      local: qualified.local,
      attributes,
      namespaces: { ...qualified.ns },
      children: [],
      text: '',
      file,
      line: parser.line + 1,
    };
    stack.at(-1)?.children.push(node);
    root ??= node;
    stack.push(node);
  };
  parser.ontext = (text) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  };
  parser.oncdata = parser.ontext;
  parser.onclosetag = () => {
    stack.pop();
  };
  parser.write(xml).close();
  if (!root) throw new ContractError(`${file}: not well-formed XML: no root element`);
  return root;
}

export async function readXmlFile(path: string): Promise<XmlNode> {
  return parseXml(await readFile(path, 'utf8'), path);
}

export function childrenOf(node: XmlNode, uri: string, local?: string): XmlNode[] {
  return node.children.filter((c) => c.uri === uri && (local === undefined || c.local === local));
}

/** `file:line <local name="...">`: where a node is, for messages. */
export function where(node: XmlNode): string {
  return `${node.file}:${node.line} <${node.local}${node.attributes.name ? ` name="${node.attributes.name}"` : ''}>`;
}

/** Resolves a QName value (`prefix:local`) with the namespaces in scope at `node`. */
export function resolveQName(node: XmlNode, value: string): { namespace: string; name: string } {
  const colon = value.indexOf(':');
  const prefix = colon === -1 ? '' : value.slice(0, colon);
  const name = colon === -1 ? value : value.slice(colon + 1);
  // An unprefixed name without a default namespace in scope is in no namespace.
  const namespace = prefix === '' ? (node.namespaces[''] ?? '') : node.namespaces[prefix];
  if (namespace === undefined) throw new ContractError(`${where(node)}: unknown namespace prefix "${prefix}" in "${value}"`);
  return { namespace, name };
}

/** The text of an element's xs:annotation/xs:documentation and wsdl:documentation, on one line ('' when none). */
export function documentationOf(node: XmlNode): string {
  const texts: string[] = [];
  for (const annotation of childrenOf(node, XSD_NS, 'annotation')) {
    for (const doc of childrenOf(annotation, XSD_NS, 'documentation')) texts.push(doc.text);
  }
  for (const doc of childrenOf(node, WSDL_NS, 'documentation')) texts.push(doc.text);
  return texts.join(' ').replace(/\s+/g, ' ').trim();
}
