import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FixtureParts {
  /** Content of the xs:schema (target namespace urn:test, prefix t). */
  schema: string;
  /** Extra attributes on xs:schema. */
  schemaAttributes?: string;
  binding?: { soap?: string; style?: string; use?: string };
  /** Element of the request message (default t:ping). */
  input?: string;
  output?: string;
}

const created: string[] = [];

/** Deletes every folder writeFixture made. */
export async function removeFixtures(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Writes a one-operation WSDL with an imported XSD into a fresh folder and returns the WSDL's path. */
export async function writeFixture(parts: FixtureParts): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'codegen-soap-fixture-'));
  created.push(dir);
  const soap = parts.binding?.soap ?? 'http://schemas.xmlsoap.org/wsdl/soap/';
  await writeFile(
    join(dir, 'Test.xsd'),
    `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test" targetNamespace="urn:test" elementFormDefault="qualified" ${parts.schemaAttributes ?? ''}>
${parts.schema}
</xs:schema>
`,
  );
  await writeFile(
    join(dir, 'Test.wsdl'),
    `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="${soap}" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test" targetNamespace="urn:test">
  <wsdl:types><xs:schema><xs:import namespace="urn:test" schemaLocation="Test.xsd"/></xs:schema></wsdl:types>
  <wsdl:message name="in"><wsdl:part name="parameters" element="${parts.input ?? 't:ping'}"/></wsdl:message>
  <wsdl:message name="out"><wsdl:part name="parameters" element="${parts.output ?? 't:pong'}"/></wsdl:message>
  <wsdl:portType name="PT"><wsdl:operation name="ping"><wsdl:documentation>Says hello.</wsdl:documentation><wsdl:input message="t:in"/><wsdl:output message="t:out"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="B" type="t:PT">
    <soap:binding style="${parts.binding?.style ?? 'document'}" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="ping"><soap:operation soapAction="urn:ping"/>
      <wsdl:input><soap:body use="${parts.binding?.use ?? 'literal'}"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="P" binding="t:B"><soap:address location="https://example.invalid/base/Ping"/></wsdl:port></wsdl:service>
</wsdl:definitions>
`,
  );
  return join(dir, 'Test.wsdl');
}

/** A schema with the two message elements the fixture's operation uses. */
export const pingPong = (pingBody: string, pongBody = '<xs:sequence/>') => `
  <xs:element name="ping"><xs:complexType>${pingBody}</xs:complexType></xs:element>
  <xs:element name="pong"><xs:complexType>${pongBody}</xs:complexType></xs:element>`;
