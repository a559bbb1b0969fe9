// Renders the SOAP reference page body from the contract model that @paykit/contracts reads out of the WSDL and XSD.
import { elementsOf, XSD_NS } from '@paykit/contracts';
import MarkdownIt from 'markdown-it';
import { escapeHtml } from './html.mjs';
import { referenceQuotes } from './quotes.mjs';

// The WSDL and XSD documentation is short Markdown: inline code, and the reference's words quoted «…».
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).use(referenceQuotes);
/** @param {string} text */
const documentation = (text) => markdown.renderInline(text);

/**
 * @typedef {import('@paykit/contracts').SoapContractModel} SoapContractModel
 * @typedef {import('@paykit/contracts').ComplexType} ComplexType
 * @typedef {import('@paykit/contracts').SimpleType} SimpleType
 * @typedef {import('@paykit/contracts').QName} QName
 * @typedef {{ kind: 'element' | 'attribute', name: string, type: QName | null, inlineType?: string, minOccurs: number,
 *   maxOccurs: number, documentation: string }} Field
 * @typedef {{ name: string, type: ComplexType, ofElement: boolean }} NamedComplexType
 * @typedef {{ name: string, type: SimpleType }} NamedSimpleType
 */

/** Anchor ids: one namespace per kind so an element and a type of the same name do not collide. */
export const anchors = {
  /** @param {string} name */ operation: (name) => `operation-${name}`,
  /** @param {string} name */ element: (name) => `element-${name}`,
  /** @param {string} name */ type: (name) => `type-${name}`,
};

/** @param {number} min @param {number} max `Infinity` for unbounded */
export function describeOccurrence(min, max) {
  const show = (/** @type {number} */ n) => (n === Infinity ? 'unbounded' : String(n));
  const range = min === max ? show(min) : `${show(min)}..${show(max)}`;
  if (min === 0 && max === 1) return `${range} (optional)`;
  if (max > 1) return `${range} (${min === 0 ? 'optional, ' : ''}repeatable)`;
  return `${range} (required)`;
}

/**
 * The fields of a complex type as the page lists them: its elements (those of nested groups too), then its attributes.
 * An inline type is named after its owner and field (`Line.note`).
 * @param {ComplexType} type
 * @param {string} owner
 * @returns {Field[]}
 */
function fieldsOf(type, owner) {
  return [
    ...elementsOf(type.group).map(({ element }) => ({
      kind: /** @type {const} */ ('element'),
      name: element.name,
      type: element.type ?? element.ref ?? null,
      ...(element.inlineType ? { inlineType: `${owner}.${element.name}` } : {}),
      minOccurs: element.minOccurs,
      maxOccurs: element.maxOccurs,
      documentation: element.documentation,
    })),
    ...type.attributes.map((attribute) => ({
      kind: /** @type {const} */ ('attribute'),
      name: attribute.name,
      type: attribute.type ?? attribute.ref ?? null,
      ...(attribute.inlineType ? { inlineType: `${owner}.${attribute.name}` } : {}),
      minOccurs: attribute.required ? 1 : 0,
      maxOccurs: 1,
      documentation: attribute.documentation,
    })),
  ];
}

/**
 * Every type the page describes, named ones and inline ones (after their owner), inline types before their owner.
 * @param {SoapContractModel} contract
 */
function typesOf(contract) {
  /** @type {NamedComplexType[]} */
  const complex = [];
  /** @type {NamedSimpleType[]} */
  const simple = [];
  /** @param {ComplexType} type @param {string} name @param {boolean} ofElement */
  const addComplex = (type, name, ofElement) => {
    for (const { element } of elementsOf(type.group)) addInline(element.inlineType, `${name}.${element.name}`);
    for (const attribute of type.attributes) addInline(attribute.inlineType, `${name}.${attribute.name}`);
    complex.push({ name, type, ofElement });
  };
  /** @param {ComplexType | SimpleType | undefined} type @param {string} name */
  const addInline = (type, name, ofElement = false) => {
    if (type?.kind === 'complex') addComplex(type, name, ofElement);
    else if (type) simple.push({ name, type });
  };
  for (const type of contract.complexTypes) addComplex(type, type.name, false);
  simple.push(...contract.simpleTypes.map((type) => ({ name: type.name, type })));
  for (const element of contract.elements) addInline(element.inlineType, element.name, true);
  return { complex, simple };
}

/** @param {Set<string>} ownTypes */
function typeNamer(ownTypes) {
  /** @param {QName | null} type @param {string} [inlineType] */
  return (type, inlineType) => {
    if (inlineType) return `<a href="#${anchors.type(inlineType)}">${escapeHtml(inlineType)}</a> (anonymous)`;
    if (!type) return 'any';
    if (type.namespace === XSD_NS) return `<code>xs:${escapeHtml(type.name)}</code>`;
    if (ownTypes.has(type.name)) return `<a href="#${anchors.type(type.name)}">${escapeHtml(type.name)}</a>`;
    return `<code>${escapeHtml(type.name)}</code>`;
  };
}

/**
 * @param {Field[]} fields
 * @param {ReturnType<typeof typeNamer>} typeName
 */
function fieldTable(fields, typeName) {
  if (fields.length === 0) return '<p>No fields: the element is empty.</p>';
  const rows = fields
    .map(
      (f) =>
        `<tr><td><code>${escapeHtml(f.kind === 'attribute' ? `@${f.name}` : f.name)}</code></td><td>${typeName(f.type, f.inlineType)}</td><td>${describeOccurrence(f.minOccurs, f.maxOccurs)}</td><td>${documentation(f.documentation)}</td></tr>`,
    )
    .join('\n');
  return `<table class="fields"><thead><tr><th>field</th><th>type</th><th>occurs</th><th>description</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/**
 * Each sample in a `div.sample` (the site script gives it a copy button), highlighted like the guides' code.
 * @param {import('./reference/soap-samples.mjs').SoapSample} sample @param {string} packageName
 * @param {import('./highlight.mjs').Highlight | undefined} highlight
 */
function sampleBlocks(sample, packageName, highlight) {
  /** @param {string} kind @param {string} title @param {string} lang @param {string} code */
  const block = (kind, title, lang, code) =>
    `<h4>${escapeHtml(title)}</h4>\n<div class="sample sample-${kind}" data-language="${lang}">${
      highlight ? highlight(code, lang) : `<pre><code class="language-${lang}">${escapeHtml(code)}</code></pre>`
    }</div>`;
  return [
    block('request', 'Request', 'xml', sample.request),
    block('response', 'Response', 'xml', sample.response),
    block('call', `With ${packageName}`, 'ts', sample.typescript),
  ].join('\n');
}

/**
 * @param {import('@paykit/contracts').Operation} op @param {(q: QName | undefined) => string} elementLink
 * @param {{ packageName: string, byOperation: Map<string, import('./reference/soap-samples.mjs').SoapSample>,
 *   highlight?: import('./highlight.mjs').Highlight }} [samples]
 */
function operationSection(op, elementLink, samples) {
  const sample = samples?.byOperation.get(op.name);
  const soapAction = op.bindings[0]?.soapAction;
  const addresses = op.endpoints.flatMap((e) => (e.address === undefined ? [] : [e.address]));
  return `<section class="operation" id="${anchors.operation(op.name)}">
<h3>${escapeHtml(op.name)}</h3>
<p>${documentation(op.documentation)}</p>
<table><tbody>
<tr><th>request element</th><td>${elementLink(op.input)}</td></tr>
<tr><th>response element</th><td>${elementLink(op.output)}</td></tr>
${op.faults.length ? `<tr><th>fault elements</th><td>${op.faults.map(elementLink).join(', ')}</td></tr>` : '<tr><th>faults</th><td>SOAP 1.1 Fault with no detail element declared</td></tr>'}
<tr><th>SOAPAction</th><td>${soapAction === '' ? 'empty (<code>""</code>)' : soapAction === undefined ? 'not declared' : `<code>${escapeHtml(soapAction)}</code>`}</td></tr>
<tr><th>style</th><td>${escapeHtml(op.bindings[0]?.style ?? 'not declared')}</td></tr>
<tr><th>port type</th><td><code>${escapeHtml(op.portType)}</code></td></tr>
<tr><th>address in the WSDL</th><td>${addresses.map((a) => `<code>${escapeHtml(a)}</code>`).join('<br>') || 'none'}</td></tr>
</tbody></table>
${sample && samples ? sampleBlocks(sample, samples.packageName, samples.highlight) : ''}
</section>`;
}

/** @param {SimpleType} type @param {string} name @param {ReturnType<typeof typeNamer>} typeName */
function simpleTypeSection(type, name, typeName) {
  const facets = type.facets;
  return `<section class="type" id="${anchors.type(name)}">
<h3>${escapeHtml(name)}</h3>
${type.documentation ? `<p>${documentation(type.documentation)}</p>` : ''}
<p>Restricts ${typeName(type.base ?? null)}${facets.length ? ':' : '.'}</p>
${facets.length ? `<ul>${facets.map((f) => `<li>${escapeHtml(f.name)}: <code>${escapeHtml(f.value)}</code></li>`).join('')}</ul>` : ''}
</section>`;
}

/**
 * @param {SoapContractModel} contract
 * @param {{ title: string, source: string, related?: { page: string, title: string },
 *   samples?: { packageName: string, byOperation: Map<string, import('./reference/soap-samples.mjs').SoapSample>,
 *   highlight?: import('./highlight.mjs').Highlight } }} page
 *   `samples`: each operation's messages and client call (./reference/soap-samples.mjs), highlighted by `highlight`
 */
export function renderSoapReference(contract, page) {
  const types = typesOf(contract);
  const typeName = typeNamer(new Set([...types.complex, ...types.simple].map((t) => t.name)));
  const elementLink = (/** @type {QName | undefined} */ q) =>
    q ? `<a href="#${anchors.element(q.name)}"><code>${escapeHtml(q.name)}</code></a>` : 'none';
  const complexByName = new Map(types.complex.map((t) => [t.name, t.type]));

  const operations = contract.operations.map((op) => operationSection(op, elementLink, page.samples)).join('\n');

  const elements = contract.elements
    .map((element) => {
      const inline = element.inlineType?.kind === 'complex' ? element.inlineType : undefined;
      const named = element.type && complexByName.get(element.type.name);
      const content = inline
        ? fieldTable(fieldsOf(inline, element.name), typeName)
        : `<p>Type: ${typeName(element.type ?? null, element.inlineType ? element.name : undefined)}</p>${named && element.type ? fieldTable(fieldsOf(named, element.type.name), typeName) : ''}`;
      return `<section class="element" id="${anchors.element(element.name)}">
<h3>${escapeHtml(element.name)}</h3>
${element.documentation ? `<p>${documentation(element.documentation)}</p>` : ''}
${content}
</section>`;
    })
    .join('\n');

  const complexTypes = types.complex
    .filter((t) => !t.ofElement)
    .map(
      ({ name, type }) => `<section class="type" id="${anchors.type(name)}">
<h3>${escapeHtml(name)}</h3>
${type.documentation ? `<p>${documentation(type.documentation)}</p>` : ''}
${type.derivation ? `<p>Extends ${typeName(type.derivation.base)}.</p>` : ''}
${type.group?.compositor === 'choice' ? '<p>Exactly one of the fields below.</p>' : ''}
${fieldTable(fieldsOf(type, name), typeName)}
</section>`,
    )
    .join('\n');

  const simpleTypes = types.simple.map(({ name, type }) => simpleTypeSection(type, name, typeName)).join('\n');

  return `<h1>${escapeHtml(page.title)}</h1>
<p>${documentation(contract.documentation)}</p>
<p class="note">Generated from <code>${escapeHtml(page.source)}</code> and the schemas it imports; never edited by hand.${page.related ? ` The same service over REST: <a href="${escapeHtml(page.related.page)}">${escapeHtml(page.related.title)}</a>.` : ''}</p>
<table><tbody>
<tr><th>service</th><td><code>${escapeHtml(contract.name)}</code></td></tr>
<tr><th>target namespace</th><td><code>${escapeHtml(contract.targetNamespace)}</code></td></tr>
<tr><th>protocol</th><td>SOAP 1.1 over HTTPS, <code>Content-Type: text/xml; charset=utf-8</code></td></tr>
</tbody></table>
<h2 id="operations">Operations</h2>
${operations}
<h2 id="elements">Elements</h2>
${elements}
<h2 id="types">Types</h2>
${complexTypes}
${simpleTypes}
`;
}
