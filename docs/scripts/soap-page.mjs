// Renders the SOAP reference page body from the model read out of the WSDL and XSD (see soap-model.mjs).
import { escapeHtml } from './html.mjs';
import { XML_SCHEMA_NAMESPACE } from './soap-model.mjs';

/**
 * @typedef {import('./soap-model.mjs').SoapContract} SoapContract
 * @typedef {import('./soap-model.mjs').Field} Field
 * @typedef {import('./soap-model.mjs').QName} QName
 */

/** Anchor ids: one namespace per kind so an element and a type of the same name do not collide. */
export const anchors = {
  /** @param {string} name */ operation: (name) => `operation-${name}`,
  /** @param {string} name */ element: (name) => `element-${name}`,
  /** @param {string} name */ type: (name) => `type-${name}`,
};

/** @param {number | 'unbounded'} min @param {number | 'unbounded'} max */
export function describeOccurrence(min, max) {
  const range = min === max ? `${min}` : `${min}..${max}`;
  if (min === 0 && max === 1) return `${range} (optional)`;
  if (max === 'unbounded' || (typeof max === 'number' && max > 1)) return `${range} (${min === 0 ? 'optional, ' : ''}repeatable)`;
  return `${range} (required)`;
}

/**
 * @param {SoapContract} contract
 */
function typeNamer(contract) {
  const ownTypes = new Set([...contract.complexTypes, ...contract.simpleTypes].map((t) => t.name));
  /** @param {QName | null} type @param {string} [inlineType] */
  return (type, inlineType) => {
    if (inlineType) return `<a href="#${anchors.type(inlineType)}">${escapeHtml(inlineType)}</a> (anonymous)`;
    if (!type) return 'any';
    if (type.uri === XML_SCHEMA_NAMESPACE) return `<code>xs:${escapeHtml(type.local)}</code>`;
    if (ownTypes.has(type.local)) return `<a href="#${anchors.type(type.local)}">${escapeHtml(type.local)}</a>`;
    return `<code>${escapeHtml(type.local)}</code>`;
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
        `<tr><td><code>${escapeHtml(f.kind === 'attribute' ? `@${f.name}` : f.name)}</code></td><td>${typeName(f.type, f.inlineType)}</td><td>${describeOccurrence(f.minOccurs, f.maxOccurs)}</td><td>${escapeHtml(f.documentation)}</td></tr>`,
    )
    .join('\n');
  return `<table class="fields"><thead><tr><th>field</th><th>type</th><th>occurs</th><th>description</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/**
 * @param {SoapContract} contract
 * @param {{ title: string, source: string, related?: { page: string, title: string } }} page
 */
export function renderSoapReference(contract, page) {
  const typeName = typeNamer(contract);
  const elementLink = (/** @type {QName | null} */ q) =>
    q ? `<a href="#${anchors.element(q.local)}"><code>${escapeHtml(q.local)}</code></a>` : 'none';
  const complexByName = new Map(contract.complexTypes.map((t) => [t.name, t]));
  const inlineNames = new Set(contract.elements.flatMap((e) => (e.inlineType ? [e.inlineType] : [])));

  const operations = contract.operations
    .map(
      (op) => `<section class="operation" id="${anchors.operation(op.name)}">
<h3>${escapeHtml(op.name)}</h3>
<p>${escapeHtml(op.documentation)}</p>
<table><tbody>
<tr><th>request element</th><td>${elementLink(op.input)}</td></tr>
<tr><th>response element</th><td>${elementLink(op.output)}</td></tr>
${op.faults.length ? `<tr><th>fault elements</th><td>${op.faults.map(elementLink).join(', ')}</td></tr>` : '<tr><th>faults</th><td>SOAP 1.1 Fault with no detail element declared</td></tr>'}
<tr><th>SOAPAction</th><td>${op.soapAction === '' ? 'empty (<code>""</code>)' : op.soapAction === null ? 'not declared' : `<code>${escapeHtml(op.soapAction)}</code>`}</td></tr>
<tr><th>style</th><td>${escapeHtml(op.style ?? 'not declared')}</td></tr>
<tr><th>port type</th><td><code>${escapeHtml(op.portType)}</code></td></tr>
<tr><th>address in the WSDL</th><td>${op.addresses.map((a) => `<code>${escapeHtml(a)}</code>`).join('<br>') || 'none'}</td></tr>
</tbody></table>
</section>`,
    )
    .join('\n');

  const elements = contract.elements
    .map((element) => {
      const inline = element.inlineType ? complexByName.get(element.inlineType) : undefined;
      const content = inline
        ? fieldTable(inline.fields, typeName)
        : `<p>Type: ${typeName(element.type)}</p>${element.type && complexByName.has(element.type.local) ? fieldTable(complexByName.get(element.type.local)?.fields ?? [], typeName) : ''}`;
      return `<section class="element" id="${anchors.element(element.name)}">
<h3>${escapeHtml(element.name)}</h3>
${element.documentation ? `<p>${escapeHtml(element.documentation)}</p>` : ''}
${content}
</section>`;
    })
    .join('\n');

  const complexTypes = contract.complexTypes
    .filter((t) => !inlineNames.has(t.name))
    .map(
      (t) => `<section class="type" id="${anchors.type(t.name)}">
<h3>${escapeHtml(t.name)}</h3>
${t.documentation ? `<p>${escapeHtml(t.documentation)}</p>` : ''}
${t.base ? `<p>Extends ${typeName(t.base)}.</p>` : ''}
${t.compositor === 'choice' ? '<p>Exactly one of the fields below.</p>' : ''}
${fieldTable(t.fields, typeName)}
</section>`,
    )
    .join('\n');

  const simpleTypes = contract.simpleTypes
    .map(
      (t) => `<section class="type" id="${anchors.type(t.name)}">
<h3>${escapeHtml(t.name)}</h3>
${t.documentation ? `<p>${escapeHtml(t.documentation)}</p>` : ''}
<p>Restricts ${typeName(t.base)}${t.facets.length ? ':' : '.'}</p>
${t.facets.length ? `<ul>${t.facets.map((f) => `<li>${escapeHtml(f.facet)}: <code>${escapeHtml(f.value)}</code></li>`).join('')}</ul>` : ''}
</section>`,
    )
    .join('\n');

  return `<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(contract.documentation)}</p>
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
