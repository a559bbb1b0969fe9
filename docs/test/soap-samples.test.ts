// The SOAP reference page's messages, read back from the built page: every operation shows a request and a response,
// each a SOAP envelope whose body element is valid against the contract's XSD (xmllint, offline), with the HTTP
// headers the binding asks for. The generator refuses the constructs it cannot sample instead of writing wrong XML.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileExchangeSoapContract, fromRoot, readSoapContract, soapContracts, type SoapContractModel } from '@paykit/contracts';
import { validateXML } from 'xmllint-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SoapSampleError, soapSamples } from '../scripts/reference/soap-samples.mjs';
import { builtSoapSamples } from './support/built-reference.js';

let model: SoapContractModel;

beforeAll(async () => {
  model = await readSoapContract(fromRoot(fileExchangeSoapContract.wsdl));
});

/** The body element of a message with its HTTP head, as a document of its own (it declares its own namespace). */
function bodyElement(message: string): string {
  const body = /<soap:Body>\s*([\s\S]*?)\s*<\/soap:Body>/.exec(message);
  if (!body?.[1]) throw new Error(`no SOAP Body in ${message}`);
  return body[1];
}

async function xsdProblems(xml: string): Promise<string[]> {
  const schema = model.schemas.filter((s) => s.declares).map((s) => ({ fileName: basename(s.file), contents: readFileSync(s.file, 'utf8') }));
  const result = await validateXML({ xml: [{ fileName: 'message.xml', contents: xml }], schema });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

describe.each(soapContracts.map((c) => ({ page: c.docs.page })))('SOAP samples of $page', ({ page }) => {
  it('show a request and a response for every operation of the WSDL, with the binding\'s HTTP headers', () => {
    const built = builtSoapSamples(page);
    expect([...built.keys()].sort()).toEqual(model.operations.map((o) => o.name).sort());
    for (const op of model.operations) {
      const blocks = built.get(op.name) ?? {};
      expect(Object.keys(blocks).sort(), op.name).toEqual(['call', 'request', 'response']);
      expect(blocks.request, op.name).toMatch(/^POST \/\S+ HTTP\/1\.1\nContent-Type: text\/xml; charset=utf-8\nSOAPAction: ""\n\n<\?xml /);
      expect(blocks.request, op.name).toContain(`<m:${op.input?.name} `);
      expect(blocks.response, op.name).toContain(`<m:${op.output?.name} `);
      expect(blocks.call, op.name).toContain(`client.call('${op.name}', `);
    }
  });

  it('every message is valid against the XSD', async () => {
    for (const [operation, blocks] of builtSoapSamples(page)) {
      for (const kind of ['request', 'response'] as const) {
        expect(await xsdProblems(bodyElement(blocks[kind] ?? '')), `${operation} ${kind}`).toEqual([]);
      }
    }
  });
});

describe('soapSamples', () => {
  it('writes messages that the XSD check can refuse', async () => {
    const upload = soapSamples(model, { packageName: '@paykit/file-exchange-soap' }).get('uploadFile');
    const valid = bodyElement(upload?.request ?? '');
    expect(await xsdProblems(valid)).toEqual([]);
    expect((await xsdProblems(valid.replace(/<m:fileContent>[^<]*<\/m:fileContent>/, ''))).join('\n')).toMatch(/fileContent/);
    expect((await xsdProblems(valid.replace('<m:fileName>fileName-1<', '<m:fileName>bad name!<'))).join('\n')).toMatch(/fileName/);
  });

  it.each([
    { construct: 'a derived type', xsd: '<x:complexType name="B"><x:sequence/></x:complexType><x:complexType name="T"><x:complexContent><x:extension base="c:B"><x:sequence/></x:extension></x:complexContent></x:complexType>', error: /derived types/ },
    { construct: 'a built-in type it has no value for', xsd: '<x:complexType name="T"><x:sequence><x:element name="when" type="x:duration"/></x:sequence></x:complexType>', error: /xs:duration/ },
    { construct: 'a pattern its sample value does not match', xsd: '<x:simpleType name="Code"><x:restriction base="x:string"><x:pattern value="[0-9]{4}"/></x:restriction></x:simpleType><x:complexType name="T"><x:sequence><x:element name="code" type="c:Code"/></x:sequence></x:complexType>', error: /does not match the pattern/ },
  ])('refuses $construct', async ({ xsd, error }) => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-docs-soap-samples-'));
    try {
      writeFileSync(join(dir, 'c.xsd'), `<x:schema xmlns:x="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:c" targetNamespace="urn:c" elementFormDefault="qualified">${xsd}<x:element name="ask" type="c:T"/><x:element name="answer"><x:complexType><x:sequence/></x:complexType></x:element></x:schema>`);
      writeFileSync(
        join(dir, 'c.wsdl'),
        `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:x="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:c" name="C" targetNamespace="urn:c">
<types><x:schema><x:import namespace="urn:c" schemaLocation="c.xsd"/></x:schema></types>
<message name="in"><part name="p" element="c:ask"/></message><message name="out"><part name="p" element="c:answer"/></message>
<portType name="CP"><operation name="ask"><input message="c:in"/><output message="c:out"/></operation></portType>
<binding name="CB" type="c:CP"><s:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><operation name="ask"><s:operation soapAction=""/></operation></binding>
<service name="CS"><port name="CPort" binding="c:CB"><s:address location="https://c.test/services/ask"/></port></service>
</definitions>`,
      );
      const constructs = await readSoapContract(join(dir, 'c.wsdl'));
      expect(() => soapSamples(constructs, { packageName: 'x' })).toThrow(SoapSampleError);
      expect(() => soapSamples(constructs, { packageName: 'x' })).toThrow(error);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
