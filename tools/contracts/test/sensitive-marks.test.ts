// The contracts' marks of what is secret: read from the real specs (the tables every package masks by), and on small
// documents, one per way a set of marks can fail to hold together.
import { afterAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import type { OpenApiDocument } from '../src/openapi/document.js';
import { openApiModel, readOpenApiContract } from '../src/openapi/read-contract.js';
import { fileExchangeContract, fileExchangeMockControlContract, fileExchangeSoapContract, paymentsContract, paymentsSandboxControlContract } from '../src/registry.js';
import { fromRoot } from '../src/repo.js';
import { SensitiveMarksError } from '../src/sensitive/kinds.js';
import { sensitiveModule, sensitiveTableName } from '../src/sensitive/module.js';
import { readSensitiveMarks, type SensitiveMarks } from '../src/sensitive/openapi-marks.js';
import { readSoapSensitiveMarks } from '../src/sensitive/soap-marks.js';
import { readSoapContract } from '../src/soap/read-contract.js';
import { ContractError } from '../src/soap/xml.js';
import { ordersWsdl, removeContracts, writeContract } from './soap-fixture.js';

afterAll(removeContracts);

const noParameters = { header: {}, query: {}, path: {}, cookie: {} };
const nothing: SensitiveMarks = { properties: {}, echoes: {}, parameters: noParameters, securitySchemes: {}, bodies: {}, xmlElements: {} };

describe('the marks of the real contracts', () => {
  it('payments: card numbers, security codes, wallet tokens, the API keys, two bodies whose fields are unpublished, echoed field values', async () => {
    expect(readSensitiveMarks(await readOpenApiContract(paymentsContract))).toEqual({
      properties: { cardNumber: 'card-number', cvn: 'card-security-code', walletAPayToken: 'secret', walletBPayToken: 'secret' },
      echoes: { fieldValue: 'fieldName' },
      parameters: { ...noParameters, header: { authorization: 'secret' } },
      securitySchemes: {
        publishableKey: { kind: 'secret', in: 'header', name: 'authorization' },
        secretKey: { kind: 'secret', in: 'header', name: 'authorization' },
      },
      bodies: {
        getLatestApiKey: { method: 'GET', path: '/api-keys/latest', webhook: false, response: 'secret' },
        queryBusinessCardSurcharge: { method: 'POST', path: '/businesses/{supplierBusinessCode}/query-card-surcharge', webhook: false, request: 'card-number' },
      },
      xmlElements: {},
    });
  });

  it('the payments sandbox control interface: the webhook secret and password, the control token', async () => {
    expect(readSensitiveMarks(await readOpenApiContract(paymentsSandboxControlContract.root))).toEqual({
      ...nothing,
      properties: { password: 'secret', secret: 'secret' },
      parameters: { ...noParameters, header: { authorization: 'secret' } },
      securitySchemes: { controlToken: { kind: 'secret', in: 'header', name: 'authorization' } },
    });
  });

  it.each([
    { name: fileExchangeContract.name, root: fileExchangeContract.root },
    { name: fileExchangeMockControlContract.name, root: fileExchangeMockControlContract.root },
  ])('$name: nothing (the credential is the client certificate, in TLS)', async ({ root }) => {
    expect(readSensitiveMarks(await readOpenApiContract(root))).toEqual(nothing);
  });

  it('the SOAP file exchange: no element is marked', async () => {
    expect(readSoapSensitiveMarks(await readSoapContract(fromRoot(fileExchangeSoapContract.wsdl)))).toEqual(nothing);
  });
});

/** A document whose operation answers `schema` as JSON, with `components.schemas` and extra root keys. */
function documentWith(schema: unknown, extra: { schemas?: Record<string, unknown>; parameters?: unknown[]; securitySchemes?: Record<string, unknown>; request?: unknown } = {}): OpenApiDocument {
  return {
    openapi: '3.1.0',
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          ...(extra.parameters ? { parameters: extra.parameters } : {}),
          ...(extra.request ? { requestBody: { content: { 'application/json': { schema: extra.request } } } } : {}),
          responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
        },
      },
    },
    components: { schemas: extra.schemas ?? {}, ...(extra.securitySchemes ? { securitySchemes: extra.securitySchemes } : {}) },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const read = (document: OpenApiDocument) => readSensitiveMarks(openApiModel(document));

describe('readSensitiveMarks: what it reads', () => {
  it('reads a mark on the property, on the schema a $ref leads to, and beside a $ref (the nearest wins)', () => {
    const marks = read(
      documentWith(ref('Card'), {
        schemas: {
          Card: { type: 'object', properties: { pan: { type: 'string', 'x-paykit-sensitive': 'card-number' }, code: ref('Code'), expiry: { ...ref('Expiry'), 'x-paykit-sensitive': 'card-expiry' } } },
          Code: { type: 'string', 'x-paykit-sensitive': 'card-security-code' },
          Expiry: { type: 'string', 'x-paykit-sensitive': false },
        },
      }),
    );
    expect(marks.properties).toEqual({ code: 'card-security-code', expiry: 'card-expiry', pan: 'card-number' });
  });

  it('finds properties at any depth: arrays, compositions, additional properties, webhooks', () => {
    const document = documentWith(
      { type: 'array', items: { allOf: [{ properties: { a: { 'x-paykit-sensitive': 'secret' } } }], additionalProperties: { properties: { b: { 'x-paykit-sensitive': 'secret' } } } } },
      {},
    );
    document.webhooks = {
      ping: { post: { requestBody: { content: { 'application/json': { schema: { oneOf: [{ properties: { c: { 'x-paykit-sensitive': 'secret' } } }] } } } }, responses: {} } },
    };
    expect(Object.keys(read(document).properties)).toEqual(['a', 'b', 'c']);
  });

  it('reads parameters by location, header names in lower case, and the credential of each marked security scheme', () => {
    const marks = read(
      documentWith(
        { type: 'object' },
        {
          parameters: [
            { name: 'X-Api-Token', in: 'header', 'x-paykit-sensitive': 'secret', schema: { type: 'string' } },
            { name: 'session', in: 'cookie', 'x-paykit-sensitive': 'secret' },
            { name: 'id', in: 'path', required: true, 'x-paykit-sensitive': false },
          ],
          securitySchemes: {
            basic: { type: 'http', scheme: 'basic', 'x-paykit-sensitive': 'secret' },
            queryKey: { type: 'apiKey', in: 'query', name: 'apiKey', 'x-paykit-sensitive': 'secret' },
            unmarked: { type: 'apiKey', in: 'header', name: 'X-Other' },
          },
        },
      ),
    );
    expect(marks.parameters).toEqual({ header: { authorization: 'secret', 'x-api-token': 'secret' }, query: { apiKey: 'secret' }, path: {}, cookie: { session: 'secret' } });
    expect(marks.securitySchemes).toEqual({ basic: { kind: 'secret', in: 'header', name: 'authorization' }, queryKey: { kind: 'secret', in: 'query', name: 'apiKey' } });
  });

  it('reads a mark on the whole schema of a request or an answer as a body mark, not as its properties', () => {
    const marks = read(documentWith(ref('Key'), { schemas: { Key: { type: 'object', 'x-paykit-sensitive': 'secret' }, Query: { 'x-paykit-sensitive': 'card-number' } }, request: ref('Query') }));
    expect(marks.bodies).toEqual({ createThing: { method: 'POST', path: '/things', webhook: false, request: 'card-number', response: 'secret' } });
    expect(marks.properties).toEqual({});
  });

  it('reads an echo: a value as sensitive as the field its sibling names', () => {
    const marks = read(documentWith({ properties: { fieldName: { type: 'string' }, fieldValue: { type: 'string', 'x-paykit-sensitive-from': 'fieldName' } } }));
    expect(marks.echoes).toEqual({ fieldValue: 'fieldName' });
  });

  it('names the XML elements of marked properties served as XML, by their XML name', () => {
    const document = documentWith({ type: 'object' });
    (document.paths!['/things'] as { post: { responses: Record<string, unknown> } }).post.responses['201'] = {
      description: 'xml',
      content: { 'application/xml': { schema: { properties: { pin: { 'x-paykit-sensitive': 'secret', xml: { name: 'PIN' } }, code: { 'x-paykit-sensitive': 'secret' } } } } },
    };
    expect(read(document).xmlElements).toEqual({ PIN: 'secret', code: 'secret' });
  });
});

describe('readSensitiveMarks: what it refuses', () => {
  it.each([
    {
      case: 'one property name with two kinds',
      document: documentWith({ properties: { card: { properties: { number: { 'x-paykit-sensitive': 'card-number' } } }, pin: { properties: { number: { 'x-paykit-sensitive': 'secret' } } } } }),
      message: /the property "number" is marked card-number at .*card\/properties\/number; marked secret at .*pin\/properties\/number: a name has one kind/,
    },
    {
      case: 'a name marked in one schema and left unmarked in another',
      document: documentWith(ref('A'), { schemas: { A: { properties: { cvn: { 'x-paykit-sensitive': 'card-security-code' } } }, B: { properties: { cvn: { type: 'string' } } } } }),
      message: /the property "cvn" is marked card-security-code at #\/components\/schemas\/A\/properties\/cvn; unmarked at #\/components\/schemas\/B\/properties\/cvn/,
    },
    {
      case: 'a name marked false in one schema and with a kind in another',
      document: documentWith({ properties: { a: { properties: { token: { 'x-paykit-sensitive': false } } }, b: { properties: { token: { 'x-paykit-sensitive': 'secret' } } } } }),
      message: /the property "token" is marked false at .*; marked secret at /,
    },
    {
      case: 'a value that is not a kind',
      document: documentWith({ properties: { cvv: { 'x-paykit-sensitive': 'cvv' } } }),
      message: /properties\/cvv: x-paykit-sensitive must be one of card-number, card-security-code, card-expiry, secret, or false, not "cvv"/,
    },
    {
      case: 'true instead of a kind',
      document: documentWith({ properties: { key: { 'x-paykit-sensitive': true } } }),
      message: /not true/,
    },
    {
      case: 'a mark where no reader looks (an array item)',
      document: documentWith({ properties: { cards: { type: 'array', items: { type: 'string', 'x-paykit-sensitive': 'card-number' } } } }),
      message: /properties\/cards\/items: this mark is on a schema that is neither a property nor a whole request or answer body/,
    },
    {
      case: 'a mark in a parameter schema instead of on the parameter',
      document: documentWith({ type: 'object' }, { parameters: [{ name: 'key', in: 'query', schema: { type: 'string', 'x-paykit-sensitive': 'secret' } }] }),
      message: /parameters\/0\/schema: this mark is on a schema that is neither a property nor a whole request or answer body/,
    },
    {
      case: 'a parameter marked in one operation and not in another',
      document: (() => {
        const document = documentWith({ type: 'object' }, { parameters: [{ name: 'X-Key', in: 'header', 'x-paykit-sensitive': 'secret' }] });
        document.paths!['/other'] = { get: { operationId: 'getOther', parameters: [{ name: 'x-key', in: 'header' }], responses: {} } };
        return document;
      })(),
      message: /the header parameter "x-key" is marked secret at POST \/things; unmarked at GET \/other/,
    },
    {
      case: 'a parameter marked otherwise than the property of the same name',
      document: documentWith({ properties: { cardNumber: { 'x-paykit-sensitive': 'card-number' } } }, { parameters: [{ name: 'cardNumber', in: 'query' }] }),
      message: /the query parameter "cardNumber" is unmarked but the property of the same name is marked card-number/,
    },
    {
      case: 'a security scheme whose header is declared unmarked as a parameter',
      document: documentWith({ type: 'object' }, { parameters: [{ name: 'Authorization', in: 'header' }], securitySchemes: { basic: { type: 'http', scheme: 'basic', 'x-paykit-sensitive': 'secret' } } }),
      message: /the header parameter "authorization" is unmarked at POST \/things; marked secret at the security scheme basic/,
    },
    {
      case: 'a kind on a mutual TLS scheme, whose credential never travels in a request',
      document: documentWith({ type: 'object' }, { securitySchemes: { tls: { type: 'mutualTLS', 'x-paykit-sensitive': 'secret' } } }),
      message: /the security scheme tls \(mutualTLS\) sends no credential in a request/,
    },
    {
      case: 'an echo that names no sibling',
      document: documentWith({ properties: { fieldValue: { 'x-paykit-sensitive-from': 'fieldName' } } }),
      message: /properties\/fieldValue: x-paykit-sensitive-from names "fieldName", which is not another property of the same object/,
    },
    {
      case: 'an echo that also carries a kind',
      document: documentWith({ properties: { name: {}, value: { 'x-paykit-sensitive-from': 'name', 'x-paykit-sensitive': 'secret' } } }),
      message: /properties\/value: a property takes x-paykit-sensitive or x-paykit-sensitive-from, not both/,
    },
    {
      case: 'two kinds on the bodies of one side',
      document: (() => {
        const document = documentWith({ 'x-paykit-sensitive': 'secret' });
        (document.paths!['/things'] as { post: { responses: Record<string, unknown> } }).post.responses['202'] = {
          description: 'other',
          content: { 'application/json': { schema: { 'x-paykit-sensitive': 'card-number' } } },
        };
        return document;
      })(),
      message: /POST \/things: its answer bodies are marked secret and card-number; a body has one kind/,
    },
  ])('refuses $case, naming where', ({ document, message }) => {
    expect(() => read(document)).toThrow(SensitiveMarksError);
    expect(() => read(document)).toThrow(message);
  });

  it('names every problem at once', () => {
    const document = documentWith({ properties: { a: { 'x-paykit-sensitive': 'x' }, b: { 'x-paykit-sensitive': 'y' } } });
    expect(() => read(document)).toThrow(/not "x"[\s\S]*not "y"/);
  });
});

const marksXsd = (body: string) => `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:test" xmlns:paykit="urn:paykit:contract-extensions:v1"
  targetNamespace="urn:test" elementFormDefault="qualified">
  ${body}
  <xs:element name="placed"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  <xs:element name="refused" type="xs:string"/>
</xs:schema>`;

const mark = (kind: string) => `<xs:annotation><xs:appinfo><paykit:sensitive>${kind}</paykit:sensitive></xs:appinfo></xs:annotation>`;

const readSoap = async (body: string) => readSoapSensitiveMarks(await readSoapContract(await writeContract({ 'orders.wsdl': ordersWsdl, 'types.xsd': marksXsd(body) })));

describe('readSoapSensitiveMarks', () => {
  it('reads marks on global and local element declarations, inline types included', async () => {
    const marks = await readSoap(`
      <xs:complexType name="Login"><xs:sequence>
        <xs:element name="user" type="xs:string"/>
        <xs:element name="password" type="xs:string">${mark('secret')}</xs:element>
      </xs:sequence></xs:complexType>
      <xs:element name="place"><xs:complexType><xs:sequence>
        <xs:element name="card"><xs:complexType><xs:sequence>
          <xs:element name="pan" type="xs:string">${mark(' card-number ')}</xs:element>
          <xs:element name="expiry" type="xs:string">${mark('false')}</xs:element>
        </xs:sequence></xs:complexType></xs:element>
      </xs:sequence></xs:complexType></xs:element>`);
    expect(marks).toEqual({ ...nothing, xmlElements: { pan: 'card-number', password: 'secret' } });
  });

  it('refuses a name marked in one declaration and not in another', async () => {
    await expect(
      readSoap(`
        <xs:complexType name="A"><xs:sequence><xs:element name="pin" type="xs:string">${mark('secret')}</xs:element></xs:sequence></xs:complexType>
        <xs:element name="place"><xs:complexType><xs:sequence><xs:element name="pin" type="xs:string"/></xs:sequence></xs:complexType></xs:element>`),
    ).rejects.toThrow(/the element "pin" is (?=.*marked secret at .*types\.xsd:\d+ <element name="pin">)(?=.*unmarked at .*types\.xsd:\d+ <element name="pin">).*: a name has one kind/);
  });

  it.each([
    { case: 'a value that is not a kind', body: `<xs:element name="place" type="xs:string">${mark('cvv')}</xs:element>`, message: /<sensitive> must hold one of card-number, .*, or false, not "cvv"/ },
    { case: 'two marks on one element', body: `<xs:element name="place" type="xs:string">${mark('secret')}${mark('secret')}</xs:element>`, message: /an element takes one <sensitive> mark/ },
    { case: 'a mark on a type', body: `<xs:complexType name="T">${mark('secret')}<xs:sequence/></xs:complexType><xs:element name="place" type="t:T"/>`, message: /a <sensitive> mark goes on an element declaration, not on an complexType/ },
  ])('refuses $case with the place', async ({ body, message }) => {
    await expect(readSoap(body)).rejects.toThrow(ContractError);
    await expect(readSoap(body)).rejects.toThrow(message);
  });
});

describe('sensitiveModule', () => {
  const marks: SensitiveMarks = {
    ...nothing,
    properties: { cardNumber: 'card-number' },
    parameters: { ...noParameters, header: { authorization: 'secret' } },
    securitySchemes: { basic: { kind: 'secret', in: 'header', name: 'authorization' } },
    bodies: { getKey: { method: 'GET', path: '/key', webhook: false, response: 'secret' } },
  };
  const source = sensitiveModule('// generated\n', [{ contract: 'payments-sandbox-control', spec: 'specs/x/openapi.yaml', marks }]);

  it('names a table after its contract', () => {
    expect(sensitiveTableName('payments')).toBe('paymentsSensitive');
    expect(sensitiveTableName('file-exchange-mock-control')).toBe('fileExchangeMockControlSensitive');
  });

  it('writes a module whose tables are the marks (security schemes folded into parameters, bodies by operationId)', async () => {
    expect(source.startsWith('// generated\n')).toBe(true);
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const module = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as Record<string, unknown> & {
      paymentsSandboxControlSensitive: Record<string, Record<string, unknown>>;
      sensitiveKindOf: (map: object, name: string) => unknown;
    };
    const table = module.paymentsSandboxControlSensitive;
    expect(table).toEqual({
      properties: { cardNumber: 'card-number' },
      echoes: {},
      parameters: { header: { authorization: 'secret' }, query: {}, path: {}, cookie: {} },
      bodies: { getKey: { response: 'secret' } },
      xmlElements: {},
    });
    expect(module.sensitiveKindOf(table.properties!, 'cardNumber')).toBe('card-number');
    for (const name of ['constructor', '__proto__', 'toString', 'cvn']) expect(module.sensitiveKindOf(table.properties!, name)).toBeUndefined();
  });

  it('type-checks with literal kinds, readonly to the last level, and refuses a table that is not a SensitiveTable', () => {
    // One program for the three files: loading the standard library is what takes the time.
    const files: Record<string, string> = {
      '/virtual/uses.ts': `${source}\nconst kind: 'card-number' = paymentsSandboxControlSensitive.properties.cardNumber;\nexport { kind };\n`,
      '/virtual/wrong-kind.ts': source.replace('"card-number"', '"card-numbr"'),
      '/virtual/writes.ts': `${source}\npaymentsSandboxControlSensitive.parameters.header.authorization = 'secret';\n`,
    };
    const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [] };
    const host = ts.createCompilerHost(options);
    const original = host.getSourceFile;
    host.getSourceFile = (name, version) => (name in files ? ts.createSourceFile(name, files[name]!, version) : original.call(host, name, version));
    const program = ts.createProgram(Object.keys(files), options, host);
    const problems = (file: string) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    expect(problems('/virtual/uses.ts')).toBe('');
    expect(problems('/virtual/wrong-kind.ts')).toMatch(/card-numbr/);
    expect(problems('/virtual/writes.ts')).toMatch(/read-only/);
  });
});
