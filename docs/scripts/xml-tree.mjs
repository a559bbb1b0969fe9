// Reads an XML document into a small element tree (namespace-aware) that the WSDL and XSD readers walk.
import sax from 'sax';

/**
 * @typedef {{ uri: string, local: string, attributes: Record<string, string>, children: XmlElement[], text: string,
 *   namespaces: Record<string, string> }} XmlElement
 */

/**
 * @param {string} xml
 * @returns {XmlElement}
 */
export function parseXml(xml) {
  const parser = sax.parser(true, { xmlns: true, trim: false });
  /** @type {XmlElement[]} */
  const stack = [];
  /** @type {XmlElement | undefined} */
  let root;
  parser.onopentag = (tag) => {
    const node = /** @type {import('sax').QualifiedTag} */ (tag);
    /** @type {Record<string, string>} */
    const attributes = {};
    for (const attribute of Object.values(node.attributes)) {
      if (attribute.prefix !== 'xmlns' && attribute.name !== 'xmlns') attributes[attribute.local] = attribute.value;
    }
    /** @type {XmlElement} */
    const element = { uri: node.uri, local: node.local, attributes, children: [], text: '', namespaces: { ...node.ns } };
    stack.at(-1)?.children.push(element);
    stack.push(element);
    root ??= element;
  };
  parser.ontext = (text) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  };
  parser.onclosetag = () => {
    stack.pop();
  };
  parser.write(xml).close();
  if (!root) throw new Error('the document has no root element');
  return root;
}

/**
 * Children of `element` in namespace `uri` with local name `local`.
 * @param {XmlElement} element
 * @param {string} uri
 * @param {string} local
 */
export const childrenNamed = (element, uri, local) => element.children.filter((c) => c.uri === uri && c.local === local);

/**
 * Splits a QName attribute value (`fx:uploadFile`) into its namespace URI and local name, using the namespaces in
 * scope on the element that carries it.
 * @param {XmlElement} element
 * @param {string} qname
 */
export function resolveQName(element, qname) {
  const [prefix, local] = qname.includes(':') ? qname.split(':', 2) : ['', qname];
  const uri = element.namespaces[prefix ?? ''] ?? '';
  return { uri, local: local ?? qname };
}

/**
 * The text of the element's documentation child (`xs:annotation/xs:documentation` or `wsdl:documentation`), with
 * the indentation of the source folded into single spaces.
 * @param {XmlElement} element
 */
export function documentationOf(element) {
  /** @param {XmlElement} node @returns {string[]} */
  const collect = (node) =>
    node.children.flatMap((child) =>
      child.local === 'documentation' ? [child.text] : child.local === 'annotation' ? collect(child) : [],
    );
  return collect(element).join(' ').replace(/\s+/g, ' ').trim();
}
