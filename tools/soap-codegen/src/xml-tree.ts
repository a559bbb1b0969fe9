import { readFile } from 'node:fs/promises';
import sax from 'sax';

/** One XML element with its namespace resolved: enough to read a WSDL or an XSD. */
export interface XmlNode {
  /** Namespace URI of the element ('' when none). */
  uri: string;
  local: string;
  /** Attributes by their local name (WSDL and XSD attributes are unqualified). */
  attributes: Record<string, string>;
  /** Prefix -> namespace URI in scope at this element, to resolve QName attribute values such as `type="fx:File"`. */
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

export class ContractError extends Error {
  override readonly name = 'ContractError';
}

export function parseXml(xml: string, file: string): XmlNode {
  const parser = sax.parser(true, { xmlns: true, position: true });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  parser.onerror = (error) => {
    throw new ContractError(`${file}: not well-formed XML: ${error.message.split('\n')[0]}`);
  };
  parser.onopentag = (tag) => {
    const qualified = tag as sax.QualifiedTag;
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
  if (!root) throw new ContractError(`${file}: no root element`);
  return root;
}

export async function readXmlFile(path: string): Promise<XmlNode> {
  return parseXml(await readFile(path, 'utf8'), path);
}

export function childrenOf(node: XmlNode, uri: string, local?: string): XmlNode[] {
  return node.children.filter((c) => c.uri === uri && (local === undefined || c.local === local));
}

export function where(node: XmlNode): string {
  return `${node.file}:${node.line} <${node.local}${node.attributes.name ? ` name="${node.attributes.name}"` : ''}>`;
}

/** Resolves a QName attribute value (`prefix:local`) with the namespaces in scope at `node`. */
export function resolveQName(node: XmlNode, value: string): { uri: string; local: string } {
  const colon = value.indexOf(':');
  const prefix = colon === -1 ? '' : value.slice(0, colon);
  const local = colon === -1 ? value : value.slice(colon + 1);
  const uri = node.namespaces[prefix];
  if (uri === undefined) throw new ContractError(`${where(node)}: unknown namespace prefix "${prefix}" in "${value}"`);
  return { uri, local };
}

/** The documentation text of an element's xs:annotation or wsdl:documentation, on one line. */
export function documentationOf(node: XmlNode): string | undefined {
  const texts: string[] = [];
  for (const annotation of childrenOf(node, XSD_NS, 'annotation')) {
    for (const doc of childrenOf(annotation, XSD_NS, 'documentation')) texts.push(doc.text);
  }
  for (const doc of childrenOf(node, WSDL_NS, 'documentation')) texts.push(doc.text);
  const text = texts.join(' ').replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}
