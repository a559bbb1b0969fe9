// The assumptions of a SOAP contract: the catalogue beside its WSDL (`assumptions.yaml`, in the format of the REST
// contracts' `x-paykit-assumptions`) and the marks in the WSDL and the XSD it imports, the attribute
// `paykit:assumption="<key>"` (namespace urn:paykit:contract-extensions:v1) on the element concerned. Read for the
// "Confirm with the operator" page, where each place links to the SOAP reference page's entry for it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseXml, WSDL_NS, XSD_NS } from '@paykit/contracts';
import { parse } from 'yaml';
import { anchors } from '../soap-page.mjs';

export const extensionNamespace = 'urn:paykit:contract-extensions:v1';

/**
 * @typedef {import('./assumptions.mjs').Assumption} Assumption
 * @typedef {{ keys: string[], where: string, href: string }} SoapMark
 */

/**
 * The catalogue of the contract whose WSDL is `wsdl` (an absolute path), in file order.
 * @param {string} wsdl
 * @returns {Assumption[]}
 */
export function readSoapAssumptions(wsdl) {
  const entries = /** @type {Record<string, import('./assumptions.mjs').AssumptionText>} */ (parse(readFileSync(join(dirname(wsdl), 'assumptions.yaml'), 'utf8')) ?? {});
  return Object.entries(entries).map(([key, { title, assume, confirm, keywords }]) => ({ key, title: title.trim(), assume: assume.trim(), confirm: confirm.trim(), keywords }));
}

/**
 * The marked elements of the WSDL and of each XSD it imports, with a reader's name for each and the anchor of its
 * entry on the SOAP page (`page`).
 * @param {string} wsdl absolute path
 * @param {string} page the SOAP reference page
 * @returns {SoapMark[]}
 */
export function findSoapMarks(wsdl, page) {
  /** @type {SoapMark[]} */
  const marks = [];
  const wsdlRoot = parseXml(readFileSync(wsdl, 'utf8'), wsdl);
  const schemaFiles = [...readFileSync(wsdl, 'utf8').matchAll(/schemaLocation="([^"]+)"/g)].map((m) => join(dirname(wsdl), m[1] ?? ''));
  /** @param {import('@paykit/contracts').XmlNode} node @param {import('@paykit/contracts').XmlNode[]} ancestors */
  const walk = (node, ancestors) => {
    const value = marked(node);
    if (value) marks.push({ keys: value.split(/\s+/).filter(Boolean), ...place(node, ancestors, page) });
    for (const child of node.children) walk(child, [...ancestors, node]);
  };
  walk(wsdlRoot, []);
  for (const file of schemaFiles) walk(parseXml(readFileSync(file, 'utf8'), file), []);
  return marks;
}

/**
 * The node's `paykit:assumption` value. The contracts' XML reader keys attributes by local name: `assumption` is
 * not an attribute of WSDL or XSD, so only ours has that name; its prefix is checked in the file's own declarations.
 * @param {import('@paykit/contracts').XmlNode} node
 */
function marked(node) {
  const value = node.attributes.assumption;
  if (value === undefined) return undefined;
  if (!Object.values(node.namespaces).includes(extensionNamespace)) throw new Error(`${node.file}:${node.line}: an "assumption" attribute outside the namespace ${extensionNamespace}`);
  return value;
}

/**
 * @param {import('@paykit/contracts').XmlNode} node
 * @param {import('@paykit/contracts').XmlNode[]} ancestors
 * @param {string} page
 * @returns {{ where: string, href: string }}
 */
function place(node, ancestors, page) {
  // The top-level type or element a nested declaration belongs to (the schema is the first ancestor).
  const named = ancestors[1]?.uri === XSD_NS && ancestors[1].attributes.name ? ancestors[1] : undefined;
  if (node.uri === WSDL_NS && node.local === 'definitions') return { where: 'the WSDL (its target namespace)', href: `${page}#operations` };
  if (node.uri === XSD_NS && node.local === 'schema') return { where: 'the XSD (its target namespace)', href: `${page}#elements` };
  if (node.uri === XSD_NS && (node.local === 'complexType' || node.local === 'simpleType') && ancestors.length === 1) {
    return { where: `the type \`${node.attributes.name}\``, href: `${page}#${anchors.type(node.attributes.name ?? '')}` };
  }
  if (node.uri === XSD_NS && node.local === 'element' && ancestors.length === 1) {
    return { where: `the element \`${node.attributes.name}\``, href: `${page}#${anchors.element(node.attributes.name ?? '')}` };
  }
  if (node.uri === XSD_NS && node.local === 'element' && named) {
    const kind = named.local === 'element' ? anchors.element : anchors.type;
    return { where: `the field \`${node.attributes.name}\` of \`${named.attributes.name}\``, href: `${page}#${kind(named.attributes.name ?? '')}` };
  }
  return { where: `${node.local} at ${node.file.split('/').at(-1)}:${node.line}`, href: page };
}
