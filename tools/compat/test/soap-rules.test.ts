import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSoapContract, type SoapContractModel } from '@paykit/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { compareSoap } from '../src/soap/compare-soap.js';
import { fixturesDir, outcomes, type Outcome } from './fixtures.js';

const UPLOAD = 'operation uploadFile input element uploadFile<UploadedFile>';
const DOWNLOAD = 'operation downloadFiles output element downloadFilesResponse.file<DownloadedFile>';
const allowed = (rule: string, location: string): Outcome => ({ rule, verdict: 'allowed', location });
const breaking = (rule: string, location: string): Outcome => ({ rule, verdict: 'breaking', location });

const read = (path: string): Promise<string> => readFile(join(fixturesDir, path), 'utf8');

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

/** The shared WSDL (edited) with one of the XSD fixtures beside it, read as the gate reads a contract. */
type Edit = (text: string) => string;
const unchanged: Edit = (text) => text;

async function contract(xsdPath: string, wsdlEdit = unchanged, xsdEdit = unchanged): Promise<SoapContractModel> {
  const dir = await mkdtemp(join(tmpdir(), 'compat-soap-'));
  folders.push(dir);
  await writeFile(join(dir, 'service.wsdl'), wsdlEdit(await read('soap/service.wsdl')));
  await writeFile(join(dir, 'FileExchange.xsd'), xsdEdit(await read(xsdPath)));
  return readSoapContract(join(dir, 'service.wsdl'));
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

  // An operation is removed from its port type and its binding alike.
  const withoutDownloads: Edit = (w) => w.replace(/<wsdl:operation name="downloadFiles">[\s\S]*?<\/wsdl:operation>/g, '');
  const toV2: Edit = (text) => text.replaceAll('urn:paykit:file-exchange:v1', 'urn:paykit:file-exchange:v2');

  const wsdlCases: { case: string; edit: Edit; xsdEdit?: Edit; expected: Outcome[] }[] = [
    {
      case: 'a removed operation',
      edit: withoutDownloads,
      expected: [breaking('removed-operation', 'operation downloadFiles')],
    },
    {
      case: 'a new major version in the namespace',
      edit: toV2,
      xsdEdit: toV2,
      expected: [breaking('changed-base-path', 'targetNamespace')],
    },
    {
      case: 'a moved service address',
      edit: (w) => w.replace('/services/messaging/UploadFile', '/services/files/UploadFile'),
      expected: [breaking('changed-base-path', 'service addresses')],
    },
  ];

  it.each(wsdlCases)('WSDL: $case', async ({ edit, xsdEdit, expected }) => {
    const xsd = 'soap-new-response-property/before.xsd';
    expect(outcomes(compareSoap(await contract(xsd), await contract(xsd, edit, xsdEdit)))).toEqual(expected);
  });

  it('a new operation is a new resource', async () => {
    const xsd = 'soap-new-response-property/before.xsd';
    const before = await contract(xsd, withoutDownloads);
    expect(outcomes(compareSoap(before, await contract(xsd)))).toEqual([allowed('new-resource', 'operation downloadFiles')]);
  });
});
