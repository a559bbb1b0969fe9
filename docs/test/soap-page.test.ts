// The SOAP reference page, rendered from the contract model of @paykit/contracts (whose reader is tested there): the
// real contract, and the constructs it does not use yet, written as a compact contract of their own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileExchangeSoapContract, fromRoot, readSoapContract, type SoapContractModel } from '@paykit/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOccurrence, renderSoapReference } from '../scripts/soap-page.mjs';

const constructs = {
  'c.wsdl': `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:x="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:c" name="C" targetNamespace="urn:c">
<types><x:schema><x:import namespace="urn:c" schemaLocation="c.xsd"/></x:schema></types>
<message name="in"><part name="p" element="c:ask"/></message><message name="bad"><part name="p" element="c:no"/></message>
<portType name="CP"><operation name="ask"><input message="c:in"/><fault name="no" message="c:bad"/></operation></portType>
<binding name="CB" type="c:CP"><s:binding style="document"/><operation name="ask"/></binding>
<service name="CS"><port name="CPort" binding="c:CB"><s:address location="https://c.test/ask"/></port></service>
</definitions>`,
  'c.xsd': `<x:schema xmlns:x="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:c" targetNamespace="urn:c">
<x:complexType name="Base"><x:choice><x:element name="a" type="x:string"/><x:element name="b" type="x:int"/></x:choice>
<x:attribute name="id" type="x:string" use="required"/></x:complexType>
<x:complexType name="More"><x:complexContent><x:extension base="c:Base"><x:sequence>
<x:element name="tag" maxOccurs="unbounded"><x:complexType><x:sequence/></x:complexType></x:element>
</x:sequence></x:extension></x:complexContent></x:complexType>
<x:element name="ask" type="c:More"/><x:element name="no"><x:simpleType><x:restriction base="x:token"/></x:simpleType></x:element>
</x:schema>`,
};

let dir: string;
let constructsModel: SoapContractModel;
let real: SoapContractModel;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paykit-docs-wsdl-'));
  for (const [name, text] of Object.entries(constructs)) writeFileSync(join(dir, name), text);
  constructsModel = await readSoapContract(join(dir, 'c.wsdl'));
  real = await readSoapContract(fromRoot(fileExchangeSoapContract.wsdl));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every in-page link of the HTML lands on an id of the same HTML. */
const danglingLinks = (html: string) => [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!).filter((id) => !html.includes(`id="${id}"`));

describe('SOAP reference rendering', () => {
  it.each([
    { min: 1, max: 1, text: '1 (required)' },
    { min: 0, max: 1, text: '0..1 (optional)' },
    { min: 0, max: Infinity, text: '0..unbounded (optional, repeatable)' },
    { min: 1, max: Infinity, text: '1..unbounded (repeatable)' },
    { min: 2, max: 2, text: '2 (repeatable)' },
  ])('occurrence $min..$max reads "$text"', ({ min, max, text }) => {
    expect(describeOccurrence(min, max)).toBe(text);
  });

  it('gives every operation, element and named type of the real contract a section, and escapes documentation', () => {
    const html = renderSoapReference(
      { ...real, documentation: 'Files <b>& more</b>' },
      { title: 'File exchange', source: fileExchangeSoapContract.wsdl, related: { page: 'rest.html', title: 'REST' } },
    );
    expect(html).toContain('Files &lt;b&gt;&amp; more&lt;/b&gt;');
    expect(html).toContain('href="rest.html"');
    const ids = [...real.operations.map((o) => `operation-${o.name}`), ...real.elements.map((e) => `element-${e.name}`), ...[...real.complexTypes, ...real.simpleTypes].map((t) => `type-${t.name}`)];
    for (const id of ids) expect(html).toContain(`id="${id}"`);
    expect(danglingLinks(html)).toEqual([]);
  });

  it.each([
    { construct: 'a fault element', shows: '<tr><th>fault elements</th><td><a href="#element-no"><code>no</code></a></td></tr>' },
    { construct: 'a SOAPAction not declared', shows: '<tr><th>SOAPAction</th><td>not declared</td></tr>' },
    { construct: 'an attribute', shows: '<td><code>@id</code></td><td><code>xs:string</code></td><td>1 (required)</td>' },
    { construct: 'a derived type', shows: '<p>Extends <a href="#type-Base">Base</a>.</p>' },
    { construct: 'a choice', shows: '<p>Exactly one of the fields below.</p>' },
    { construct: 'an inline type of a field', shows: '<a href="#type-More.tag">More.tag</a> (anonymous)</td><td>1..unbounded (repeatable)' },
    { construct: 'an inline simple type of an element', shows: '<p>Type: <a href="#type-no">no</a> (anonymous)</p>' },
    { construct: 'a restriction without facets', shows: '<p>Restricts <code>xs:token</code>.</p>' },
  ])('renders $construct', ({ shows }) => {
    const html = renderSoapReference(constructsModel, { title: 'C', source: 'c.wsdl' });
    expect(html).toContain(shows);
    expect(danglingLinks(html)).toEqual([]);
  });
});
