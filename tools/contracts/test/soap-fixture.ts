import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];

/** Deletes every folder writeContract made. */
export async function removeContracts(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Writes files (name -> text) into a fresh folder and returns the path of the first one. */
export async function writeContract(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-contracts-soap-'));
  created.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return join(dir, Object.keys(files)[0]!);
}

/** A WSDL of one operation, `place`, with a fault; its schema is in types.xsd. */
export const ordersWsdl = `<?xml version="1.0"?>
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
    <wsdl:operation name="place"><soap:operation soapAction="urn:place"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="OrdersService">
    <wsdl:port name="Orders" binding="t:OrdersBinding"><soap:address location="https://orders.test/soap/Orders"/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

/** A schema with every construct the model represents. */
export const ordersXsd = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test" targetNamespace="urn:test" elementFormDefault="qualified">
  <xs:simpleType name="Code">
    <xs:annotation><xs:documentation>Order code.</xs:documentation></xs:annotation>
    <xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}"/><xs:maxLength value="3"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Codes"><xs:list itemType="t:Code"/></xs:simpleType>
  <xs:simpleType name="CodeOrNumber"><xs:union memberTypes="t:Code xs:int"/></xs:simpleType>
  <xs:complexType name="Line">
    <xs:sequence>
      <xs:element name="code" type="t:Code"/>
      <xs:element name="quantity" type="xs:int" minOccurs="0"/>
      <xs:element name="note" minOccurs="0" maxOccurs="3">
        <xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType>
      </xs:element>
      <xs:choice>
        <xs:element name="gift" type="xs:boolean"/>
        <xs:element ref="t:refused"/>
      </xs:choice>
    </xs:sequence>
    <xs:attribute name="id" type="xs:string" use="required"/>
    <xs:attribute name="colour"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value="red"/></xs:restriction></xs:simpleType></xs:attribute>
  </xs:complexType>
  <xs:complexType name="GiftLine">
    <xs:complexContent><xs:extension base="t:Line"><xs:sequence><xs:element name="message" type="xs:string" nillable="true"/></xs:sequence></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:complexType name="Amount">
    <xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currency" type="xs:string"/></xs:extension></xs:simpleContent>
  </xs:complexType>
  <xs:element name="place">
    <xs:annotation><xs:documentation>An order.</xs:documentation></xs:annotation>
    <xs:complexType><xs:sequence><xs:element name="line" type="t:Line" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
  <xs:element name="placed"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  <xs:element name="refused" type="xs:string"/>
</xs:schema>`;
