import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareSoap, type SoapContract } from '../src/soap/compare-soap.js';
import { readWsdl } from '../src/soap/wsdl-model.js';
import { readXsd } from '../src/soap/xsd-model.js';
import { fixturesDir, outcomes, type Outcome } from './fixtures.js';

const UPLOAD = 'operation uploadFile input element uploadFile<UploadedFile>';
const DOWNLOAD = 'operation downloadFiles output element downloadFilesResponse.file<DownloadedFile>';
const allowed = (rule: string, location: string): Outcome => ({ rule, verdict: 'allowed', location });
const breaking = (rule: string, location: string): Outcome => ({ rule, verdict: 'breaking', location });

const read = (path: string): Promise<string> => readFile(join(fixturesDir, path), 'utf8');

async function contract(xsdPath: string, wsdlEdit: (wsdl: string) => string = (w) => w): Promise<SoapContract> {
  return { wsdl: readWsdl(wsdlEdit(await read('soap/service.wsdl'))), xsd: readXsd(await read(xsdPath)) };
}

/** XSD fixture pairs in test/fixtures/soap-<rule>/, judged through the operations of one shared WSDL. */
const xsdCases: { fixture: string; expected: Outcome[] }[] = [
  { fixture: 'soap-removed-request-property', expected: [breaking('removed-request-property', `${UPLOAD}.fileType`)] },
  { fixture: 'soap-new-response-property', expected: [allowed('new-response-property', `${DOWNLOAD}.createdAt`)] },
  {
    fixture: 'soap-new-required-request-field',
    // A new element without minOccurs="0", and mimeType going from minOccurs 0 to 1.
    expected: [breaking('new-required-request-field', `${UPLOAD}.checksum`), breaking('new-required-request-field', `${UPLOAD}.mimeType`)],
  },
  { fixture: 'soap-lowered-max-occurs', expected: [breaking('lowered-max-occurs', `${DOWNLOAD}.parameter`)] },
  { fixture: 'soap-removed-response-property', expected: [breaking('removed-response-property', `${DOWNLOAD}@version`)] },
  {
    fixture: 'soap-new-optional-request-parameter',
    // Parameter is used in both directions: the same new optional element is judged once per direction.
    expected: [
      allowed('new-response-property', `${DOWNLOAD}.parameter<Parameter>.encoding`),
      allowed('new-optional-request-parameter', `${UPLOAD}.parameter<Parameter>.encoding`),
    ],
  },
  { fixture: 'soap-narrowed-request-type', expected: [breaking('narrowed-request-type', `${UPLOAD}.fileName<FileName>`)] },
];

describe('SOAP rules, XSD compared element by element', () => {
  it.each(xsdCases)('$fixture', async ({ fixture, expected }) => {
    const differences = compareSoap(await contract(`${fixture}/before.xsd`), await contract(`${fixture}/after.xsd`));
    const byLocation = (a: Outcome, b: Outcome): number => a.location.localeCompare(b.location) || a.rule.localeCompare(b.rule);
    expect(outcomes(differences)).toEqual([...expected].sort(byLocation));
  });

  const wsdlCases: { case: string; edit: (wsdl: string) => string; expected: Outcome[] }[] = [
    {
      case: 'a removed operation',
      edit: (w) => w.replace(/<wsdl:operation name="downloadFiles">[\s\S]*?<\/wsdl:operation>/, ''),
      expected: [breaking('removed-operation', 'operation downloadFiles')],
    },
    {
      case: 'a new major version in the namespace',
      edit: (w) => w.replace('targetNamespace="urn:paykit:file-exchange:v1"', 'targetNamespace="urn:paykit:file-exchange:v2"'),
      expected: [breaking('changed-base-path', 'targetNamespace')],
    },
    {
      case: 'a moved service address',
      edit: (w) => w.replace('/services/messaging/UploadFile', '/services/files/UploadFile'),
      expected: [breaking('changed-base-path', 'service addresses')],
    },
  ];

  it.each(wsdlCases)('WSDL: $case', async ({ edit, expected }) => {
    const xsd = 'soap-new-response-property/before.xsd';
    expect(outcomes(compareSoap(await contract(xsd), await contract(xsd, edit)))).toEqual(expected);
  });

  it('a new operation is a new resource', async () => {
    const xsd = 'soap-new-response-property/before.xsd';
    const before = await contract(xsd, (w) => w.replace(/<wsdl:operation name="downloadFiles">[\s\S]*?<\/wsdl:operation>/, ''));
    expect(outcomes(compareSoap(before, await contract(xsd)))).toEqual([allowed('new-resource', 'operation downloadFiles')]);
  });
});
