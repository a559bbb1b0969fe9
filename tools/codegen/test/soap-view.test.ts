import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractError, fileExchangeSoapContract, repoRoot } from '@paykit/contracts';
import { emitContract } from '../src/generators/soap/emit-contract.js';
import { emitTypes } from '../src/generators/soap/emit-types.js';
import { readCodegenView } from '../src/generators/soap/view.js';
import { pingPong, removeFixtures, writeFixture, type FixtureParts } from './support/soap-fixture.js';

afterAll(removeFixtures);

describe('readCodegenView and emitTypes', () => {
  it('maps occurrences to required, optional and array properties', async () => {
    const wsdl = await writeFixture({
      schema: `
        <xs:simpleType name="Colour"><xs:restriction base="xs:string"><xs:enumeration value="red"/><xs:enumeration value="blue"/></xs:restriction></xs:simpleType>
        ${pingPong(`<xs:sequence>
          <xs:element name="must" type="xs:string"/>
          <xs:element name="may" type="xs:int" minOccurs="0"/>
          <xs:element name="many" type="xs:boolean" minOccurs="1" maxOccurs="unbounded"/>
          <xs:element name="colour" type="t:Colour" minOccurs="0"/>
          <xs:element name="bytes" type="xs:base64Binary"/>
          <xs:element name="big" type="xs:long"/>
          <xs:element name="nested"><xs:complexType><xs:sequence><xs:element name="leaf" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
        </xs:sequence>`)}`,
    });
    const model = await readCodegenView(wsdl);
    const types = emitTypes(model);
    expect(types).toContain('export type Colour = "red" | "blue";');
    expect(types).toContain('  must: string;');
    expect(types).toContain('  may?: number;');
    expect(types).toContain('  many: boolean[];');
    expect(types).toContain('  colour?: Colour;');
    expect(types).toContain('  bytes: Uint8Array;');
    // xs:long can exceed a double's precision: it stays a string.
    expect(types).toContain('  big: string;');
    expect(types).toContain('  nested: PingNested;');
    expect(types).toContain('export interface PingNested {\n  leaf: string;\n}');
    expect(model.operations).toEqual([
      { name: 'ping', doc: 'Says hello.', service: 'S', port: 'P', address: 'https://example.invalid/base/Ping', soapAction: 'urn:ping', inputElement: 'ping', outputElement: 'pong' },
    ]);
    expect(model.sources).toEqual(['Test.wsdl', 'Test.xsd']);
  });

  const refused: Array<[string, FixtureParts, string]> = [
    ['attributes', { schema: pingPong('<xs:sequence/><xs:attribute name="a" type="xs:string"/>') }, '<xs:attribute> in a complex type is not supported'],
    ['xs:choice', { schema: pingPong('<xs:choice><xs:element name="a" type="xs:string"/></xs:choice>') }, '<xs:choice> in a complex type'],
    ['element references', { schema: pingPong('<xs:sequence><xs:element ref="t:pong"/></xs:sequence>') }, 'an element reference'],
    ['nillable elements', { schema: pingPong('<xs:sequence><xs:element name="a" type="xs:string" nillable="true"/></xs:sequence>') }, 'nillable'],
    ['an XSD type it does not know', { schema: pingPong('<xs:sequence><xs:element name="a" type="xs:QName"/></xs:sequence>') }, 'the XSD type "xs:QName"'],
    ['an undeclared type', { schema: pingPong('<xs:sequence><xs:element name="a" type="t:Missing"/></xs:sequence>') }, 'type "t:Missing" is not declared'],
    ['an unknown prefix', { schema: pingPong('<xs:sequence><xs:element name="a" type="q:X"/></xs:sequence>') }, 'unknown namespace prefix "q"'],
    ['rpc style', { schema: pingPong('<xs:sequence/>'), binding: { style: 'rpc' } }, 'style="rpc"'],
    ['SOAP encoding', { schema: pingPong('<xs:sequence/>'), binding: { use: 'encoded' } }, 'use="encoded"'],
    ['a SOAP 1.2 binding', { schema: pingPong('<xs:sequence/>'), binding: { soap: 'http://schemas.xmlsoap.org/wsdl/soap12/' } }, 'SOAP 1.2 port'],
    ['a message element that does not exist', { schema: pingPong('<xs:sequence/>'), input: 't:nothing' }, 'element "t:nothing" is not declared'],
    ['a pattern that is no regular expression', { schema: `<xs:simpleType name="N"><xs:restriction base="xs:string"><xs:pattern value="a{2,1}"/></xs:restriction></xs:simpleType>${pingPong('<xs:sequence><xs:element name="n" type="t:N"/></xs:sequence>')}` }, 'is not a valid regular expression'],
    ['XSD-only regex syntax', { schema: `<xs:simpleType name="N"><xs:restriction base="xs:string"><xs:pattern value="\\i\\c*"/></xs:restriction></xs:simpleType>${pingPong('<xs:sequence><xs:element name="n" type="t:N"/></xs:sequence>')}` }, 'XSD-only syntax'],
    ['a derived type', { schema: `<xs:complexType name="B"><xs:sequence/></xs:complexType><xs:complexType name="D"><xs:complexContent><xs:extension base="t:B"/></xs:complexContent></xs:complexType>${pingPong('<xs:sequence/>')}` }, '<xs:complexContent> in a complex type'],
    ['a list type', { schema: `<xs:simpleType name="L"><xs:list itemType="xs:string"/></xs:simpleType>${pingPong('<xs:sequence/>')}` }, 'a simple type other than a restriction'],
    ['an inline simple type', { schema: pingPong('<xs:sequence><xs:element name="a"><xs:simpleType><xs:restriction base="xs:string"/></xs:simpleType></xs:element></xs:sequence>') }, 'an inline simple type (name it)'],
    ['a message element of a simple type', { schema: `<xs:element name="s" type="xs:string"/>${pingPong('<xs:sequence/>')}` }, 'a top-level message element of a simple type'],
    ['a facet it would ignore', { schema: `<xs:simpleType name="N"><xs:restriction base="xs:int"><xs:maxInclusive value="3"/></xs:restriction></xs:simpleType>${pingPong('<xs:sequence/>')}` }, 'the facet <xs:maxInclusive>'],
  ];

  it.each(refused)('refuses %s with a ContractError naming the place', async (_name, parts, message) => {
    const wsdl = await writeFixture(parts);
    // Names that refer to nothing are refused by the contract reader, what the generator cannot print by its view,
    // and XSD-only pattern syntax while printing the descriptors.
    const error = await readCodegenView(wsdl)
      .then((model) => [emitTypes(model), emitContract(model, './types.js')])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toMatch(/Test\.(wsdl|xsd)|simple type/);
  });

  it('agrees with node-soap (the mock server\'s parser) on every message field and which ones repeat', async () => {
    const soap = createRequire(import.meta.url)('soap') as typeof import('soap');
    const wsdlPath = join(repoRoot, fileExchangeSoapContract.wsdl);
    const client = await soap.createClientAsync(wsdlPath);
    const described = client.describe() as Record<string, Record<string, Record<string, { input: Record<string, unknown>; output: Record<string, unknown> }>>>;
    const model = await readCodegenView(wsdlPath);
    const ours = (typeName: string) =>
      model.complexTypes.find((t) => t.name === typeName)!.fields.map((f) => (f.maxOccurs > 1 ? `${f.name}[]` : f.name)).sort();
    const theirs = (shape: Record<string, unknown>) => Object.keys(shape).filter((k) => k !== 'targetNSAlias' && k !== 'targetNamespace').sort();
    for (const operation of model.operations) {
      const port = described[operation.service]![operation.port]![operation.name]!;
      const elementType = (name: string) => model.elements.find((e) => e.name === name)!.typeName;
      expect(theirs(port.input)).toEqual(ours(elementType(operation.inputElement)));
      expect(theirs(port.output)).toEqual(ours(elementType(operation.outputElement)));
    }
  });
});
