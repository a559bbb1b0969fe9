// The WSDL/XSD reader behind the SOAP reference page, on a small contract built to cover each construct it handles,
// and the occurrence wording of the page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSoapContract, type SoapContract } from '../scripts/soap-model.mjs';
import { describeOccurrence, renderSoapReference } from '../scripts/soap-page.mjs';

const wsdl = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test" name="Orders" targetNamespace="urn:test">
  <wsdl:documentation>  Places   orders. </wsdl:documentation>
  <wsdl:types><xs:schema><xs:import namespace="urn:test" schemaLocation="types.xsd"/></xs:schema></wsdl:types>
  <wsdl:message name="placeIn"><wsdl:part name="parameters" element="t:place"/></wsdl:message>
  <wsdl:message name="placeOut"><wsdl:part name="parameters" element="t:placed"/></wsdl:message>
  <wsdl:message name="placeFault"><wsdl:part name="fault" element="t:refused"/></wsdl:message>
  <wsdl:portType name="OrdersPort">
    <wsdl:operation name="place">
      <wsdl:documentation>Places one order.</wsdl:documentation>
      <wsdl:input message="t:placeIn"/><wsdl:output message="t:placeOut"/><wsdl:fault name="refused" message="t:placeFault"/>
    </wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="OrdersBinding" type="t:OrdersPort">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="place"><soap:operation soapAction="urn:place"/></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="OrdersService">
    <wsdl:port name="Orders" binding="t:OrdersBinding"><soap:address location="https://orders.test/soap"/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

const xsd = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test" targetNamespace="urn:test" elementFormDefault="qualified">
  <xs:simpleType name="Code">
    <xs:annotation><xs:documentation>Order code.</xs:documentation></xs:annotation>
    <xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}"/><xs:maxLength value="3"/></xs:restriction>
  </xs:simpleType>
  <xs:complexType name="Line">
    <xs:sequence>
      <xs:element name="code" type="t:Code"/>
      <xs:element name="quantity" type="xs:int" minOccurs="0"/>
      <xs:element name="note" minOccurs="0" maxOccurs="3">
        <xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType>
      </xs:element>
    </xs:sequence>
    <xs:attribute name="id" type="xs:string" use="required"/>
  </xs:complexType>
  <xs:complexType name="GiftLine">
    <xs:complexContent><xs:extension base="t:Line"><xs:sequence><xs:element name="message" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:element name="place">
    <xs:annotation><xs:documentation>An order.</xs:documentation></xs:annotation>
    <xs:complexType><xs:sequence><xs:element name="line" type="t:Line" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
  <xs:element name="placed"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  <xs:element name="refused" type="xs:string"/>
</xs:schema>`;

let dir: string;
let contract: SoapContract;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paykit-docs-wsdl-'));
  writeFileSync(join(dir, 'orders.wsdl'), wsdl);
  writeFileSync(join(dir, 'types.xsd'), xsd);
  contract = readSoapContract(join(dir, 'orders.wsdl'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readSoapContract', () => {
  it('reads the service header and folds documentation whitespace', () => {
    expect(contract).toMatchObject({ name: 'Orders', targetNamespace: 'urn:test', documentation: 'Places orders.' });
  });

  it('reads an operation with its messages, fault, action, style and address', () => {
    expect(contract.operations).toEqual([
      {
        name: 'place',
        documentation: 'Places one order.',
        portType: 'OrdersPort',
        input: { uri: 'urn:test', local: 'place' },
        output: { uri: 'urn:test', local: 'placed' },
        faults: [{ uri: 'urn:test', local: 'refused' }],
        soapAction: 'urn:place',
        style: 'document',
        addresses: ['https://orders.test/soap'],
      },
    ]);
  });

  it('reads global elements, naming anonymous types after their element', () => {
    expect(contract.elements.map((e) => [e.name, e.inlineType ?? e.type?.local])).toEqual([
      ['place', 'place'],
      ['placed', 'placed'],
      ['refused', 'string'],
    ]);
  });

  it.each([
    { type: 'Line', field: 'code', typeName: 'Code', min: 1, max: 1, kind: 'element' },
    { type: 'Line', field: 'quantity', typeName: 'int', min: 0, max: 1, kind: 'element' },
    { type: 'Line', field: 'note', typeName: undefined, min: 0, max: 3, kind: 'element' },
    { type: 'Line', field: 'id', typeName: 'string', min: 1, max: 1, kind: 'attribute' },
    { type: 'place', field: 'line', typeName: 'Line', min: 1, max: 'unbounded', kind: 'element' },
    { type: 'GiftLine', field: 'message', typeName: 'string', min: 1, max: 1, kind: 'element' },
    { type: 'Line.note', field: 'text', typeName: 'string', min: 1, max: 1, kind: 'element' },
  ])('$type.$field is $kind $typeName occurring $min..$max', ({ type, field, typeName, min, max, kind }) => {
    const found = contract.complexTypes.find((t) => t.name === type)?.fields.find((f) => f.name === field);
    expect(found).toMatchObject({ kind, minOccurs: min, maxOccurs: max });
    expect(found?.type?.local).toBe(typeName);
  });

  it('records the base of a derived type, and the facets and documentation of a simple type', () => {
    expect(contract.complexTypes.find((t) => t.name === 'GiftLine')?.base).toEqual({ uri: 'urn:test', local: 'Line' });
    expect(contract.simpleTypes).toEqual([
      {
        name: 'Code',
        documentation: 'Order code.',
        base: { uri: 'http://www.w3.org/2001/XMLSchema', local: 'string' },
        facets: [
          { facet: 'pattern', value: '[A-Z]{3}' },
          { facet: 'maxLength', value: '3' },
        ],
      },
    ]);
  });

  it('refuses a document that is not a WSDL', () => {
    writeFileSync(join(dir, 'not.wsdl'), '<definitions/>');
    expect(() => readSoapContract(join(dir, 'not.wsdl'))).toThrow(/not a WSDL 1.1 document/);
  });
});

describe('SOAP reference rendering', () => {
  it.each([
    { min: 1, max: 1, text: '1 (required)' },
    { min: 0, max: 1, text: '0..1 (optional)' },
    { min: 0, max: 'unbounded' as const, text: '0..unbounded (optional, repeatable)' },
    { min: 1, max: 'unbounded' as const, text: '1..unbounded (repeatable)' },
    { min: 2, max: 2, text: '2 (repeatable)' },
  ])('occurrence $min..$max reads "$text"', ({ min, max, text }) => {
    expect(describeOccurrence(min, max)).toBe(text);
  });

  it('escapes documentation and links every type it names', () => {
    const html = renderSoapReference(
      { ...contract, documentation: 'Orders <b>& more</b>' },
      { title: 'Orders', source: 'orders.wsdl', related: { page: 'orders-rest.html', title: 'Orders REST' } },
    );
    expect(html).toContain('Orders &lt;b&gt;&amp; more&lt;/b&gt;');
    expect(html).toContain('href="orders-rest.html"');
    for (const anchor of html.matchAll(/href="#([^"]+)"/g)) expect(html).toContain(`id="${anchor[1]}"`);
  });
});
