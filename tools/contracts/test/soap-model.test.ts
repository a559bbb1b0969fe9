// The WSDL/XSD model the SOAP code generator, the compatibility gate and the docs read: what it records of each
// construct, and what it refuses. The real contract is read by test/registry.test.ts and by each consumer's tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPath, elementsOf, findComplexType, soapBasePath } from '../src/soap/lookup.js';
import type { ComplexType, SoapContractModel } from '../src/soap/model.js';
import { readSoapContract } from '../src/soap/read-contract.js';
import { ContractError, XSD_NS } from '../src/soap/xml.js';
import { ordersWsdl, ordersXsd, removeContracts, writeContract } from './soap-fixture.js';

const t = (name: string) => ({ namespace: 'urn:test', name });
const xs = (name: string) => ({ namespace: XSD_NS, name });

let model: SoapContractModel;
beforeAll(async () => {
  model = await readSoapContract(await writeContract({ 'orders.wsdl': ordersWsdl, 'types.xsd': ordersXsd }));
});
afterAll(removeContracts);

const complex = (name: string) => findComplexType(model, t(name))!;

describe('readSoapContract: the WSDL', () => {
  it('reads the definitions, folding documentation whitespace, and lists the files read from the WSDL folder', () => {
    expect(model).toMatchObject({ name: 'Orders', targetNamespace: 'urn:test', documentation: 'Places orders.', sources: ['orders.wsdl', 'types.xsd'] });
    expect(model.schemas.map((s) => [s.targetNamespace, s.declares, s.elementFormDefault])).toEqual([
      ['', false, 'unqualified'],
      ['urn:test', true, 'qualified'],
    ]);
  });

  it('joins an operation with its messages\' elements, its binding and the port serving it', () => {
    expect(model.operations).toEqual([
      {
        name: 'place',
        documentation: 'Places one order.',
        portType: 'OrdersPort',
        input: t('place'),
        output: t('placed'),
        faults: [t('refused')],
        // A soap:body without use= reads as '', told apart from no soap:body.
        bindings: [expect.objectContaining({ binding: 'OrdersBinding', soapVersion: '1.1', soapAction: 'urn:place', style: 'document', inputUse: 'literal', outputUse: '' })],
        endpoints: [{ service: 'OrdersService', port: 'Orders', binding: 'OrdersBinding', address: 'https://orders.test/soap/Orders' }],
        source: expect.stringMatching(/orders\.wsdl:10 <operation name="place">$/),
      },
    ]);
  });

  it.each([
    ['https://orders.test/soap/Orders', '/soap/Orders'],
    ['https://127.0.0.1:4021/services/messaging/UploadFile?wsdl', '/services/messaging/UploadFile'],
    ['/relative/Port', '/relative/Port'],
  ])('the path of address %s is %s', (address, path) => {
    expect(addressPath(address)).toBe(path);
  });

  it('gives the base path the port addresses share', () => {
    expect(soapBasePath(model)).toBe('/soap');
  });
});

describe('readSoapContract: the XSD', () => {
  it('reads global elements with a named type or their inline type', () => {
    expect(model.elements.map((e) => [e.name, e.type?.name ?? e.inlineType?.kind])).toEqual([
      ['place', 'complex'],
      ['placed', 'complex'],
      ['refused', 'string'],
    ]);
    expect(model.elements[0]!.documentation).toBe('An order.');
  });

  it.each([
    { type: 'Line', field: 'code', typeName: t('Code'), min: 1, max: 1, optionalGroup: false },
    { type: 'Line', field: 'quantity', typeName: xs('int'), min: 0, max: 1, optionalGroup: false },
    { type: 'Line', field: 'note', typeName: undefined, min: 0, max: 3, optionalGroup: false },
    { type: 'Line', field: 'gift', typeName: xs('boolean'), min: 1, max: 1, optionalGroup: true },
    { type: 'Line', field: 'refused', typeName: undefined, min: 1, max: 1, optionalGroup: true },
    { type: 'GiftLine', field: 'message', typeName: xs('string'), min: 1, max: 1, optionalGroup: false },
  ])('$type.$field: type $typeName.name occurring $min..$max, optional group $optionalGroup', ({ type, field, typeName, min, max, optionalGroup }) => {
    const found = elementsOf(complex(type).group).find((e) => e.element.name === field)!;
    expect(found.element).toMatchObject({ minOccurs: min, maxOccurs: max });
    expect(found.element.type).toEqual(typeName);
    expect(found.inOptionalGroup).toBe(optionalGroup);
  });

  it('keeps inline types, references, nillable and unbounded where they are declared', () => {
    const line = elementsOf(complex('Line').group).map((e) => e.element);
    expect((line.find((e) => e.name === 'note')!.inlineType as ComplexType).group!.particles[0]).toMatchObject({ name: 'text', type: xs('string') });
    expect(line.find((e) => e.name === 'refused')!.ref).toEqual(t('refused'));
    expect(elementsOf(complex('GiftLine').group)[0]!.element.nillable).toBe(true);
    const place = model.elements[0]!.inlineType as ComplexType;
    expect(place.group!.particles[0]).toMatchObject({ name: 'line', type: t('Line'), minOccurs: 1, maxOccurs: Infinity });
  });

  it('reads attributes, inline simple types of attributes and the two kinds of derivation', () => {
    expect(complex('Line').attributes.map((a) => [a.name, a.type?.name, a.required, a.inlineType?.facets.map((f) => f.value)])).toEqual([
      ['id', 'string', true, undefined],
      ['colour', undefined, false, ['red']],
    ]);
    expect(complex('GiftLine').derivation).toMatchObject({ content: 'complex', method: 'extension', base: t('Line') });
    expect(complex('Amount').derivation).toMatchObject({ content: 'simple', method: 'extension', base: xs('decimal') });
    expect(complex('Amount').attributes.map((a) => a.name)).toEqual(['currency']);
  });

  it('reads restrictions with their facets in order, lists and unions', () => {
    expect(model.simpleTypes.map(({ name, documentation, variety, base, itemType, memberTypes, facets }) => ({ name, documentation, variety, base, itemType, memberTypes, facets: facets.map((f) => `${f.name}=${f.value}`) }))).toEqual([
      { name: 'Code', documentation: 'Order code.', variety: 'restriction', base: xs('string'), itemType: undefined, memberTypes: [], facets: ['pattern=[A-Z]{3}', 'maxLength=3'] },
      { name: 'Codes', documentation: '', variety: 'list', base: undefined, itemType: t('Code'), memberTypes: [], facets: [] },
      { name: 'CodeOrNumber', documentation: '', variety: 'union', base: undefined, itemType: undefined, memberTypes: [t('Code'), xs('int')], facets: [] },
    ]);
  });
});

/** The fixture with one text replaced: each refusal below is one small mistake in an otherwise valid contract. */
const edited = (file: 'wsdl' | 'xsd', from: string | RegExp, to: string) =>
  writeContract({
    'orders.wsdl': file === 'wsdl' ? ordersWsdl.replace(from, to) : ordersWsdl,
    'types.xsd': file === 'xsd' ? ordersXsd.replace(from, to) : ordersXsd,
  });

describe('readSoapContract refuses', () => {
  it.each([
    { problem: 'a document that is not a WSDL', file: 'wsdl', from: /<wsdl:definitions[\s\S]*<\/wsdl:definitions>/, to: '<definitions/>', message: /orders\.wsdl: not a WSDL 1\.1 document/ },
    { problem: 'an XSD that is not well-formed', file: 'xsd', from: '</xs:schema>', to: '', message: /types\.xsd:\d+:\d+: not well-formed XML/ },
    { problem: 'a missing imported schema', file: 'wsdl', from: 'schemaLocation="types.xsd"', to: 'schemaLocation="gone.xsd"', message: /ENOENT.*gone\.xsd/ },
    { problem: 'an import without schemaLocation', file: 'wsdl', from: ' schemaLocation="types.xsd"', to: '', message: /orders\.wsdl:5 <import>: an import without schemaLocation cannot be resolved offline/ },
    { problem: 'a remote schemaLocation', file: 'wsdl', from: '"types.xsd"', to: '"https://example.test/types.xsd"', message: /remote schemaLocation "https:\/\/example\.test\/types\.xsd"/ },
    { problem: 'an undeclared type', file: 'xsd', from: 'type="t:Code"/>', to: 'type="t:Missing"/>', message: /types\.xsd:\d+ <element name="code">: type "t:Missing" is not declared/ },
    { problem: 'an unknown prefix', file: 'xsd', from: 'type="t:Code"/>', to: 'type="q:Code"/>', message: /types\.xsd:\d+ <element name="code">: unknown namespace prefix "q" in "q:Code"/ },
    { problem: 'a message element that does not exist', file: 'wsdl', from: 'element="t:place"', to: 'element="t:nothing"', message: /orders\.wsdl:6 <part name="parameters">: element "t:nothing" is not declared/ },
    { problem: 'an undeclared message', file: 'wsdl', from: 'message="t:placeOut"', to: 'message="t:placeOot"', message: /message "t:placeOot" is not declared/ },
    { problem: 'a port of an undeclared binding', file: 'wsdl', from: 'binding="t:OrdersBinding"', to: 'binding="t:Other"', message: /<port name="Orders">: binding "t:Other" is not declared/ },
    { problem: 'a binding of an undeclared port type', file: 'wsdl', from: 'type="t:OrdersPort"', to: 'type="t:OtherPort"', message: /port type "t:OtherPort" is not declared/ },
    { problem: 'a bound operation the port type lacks', file: 'wsdl', from: '<wsdl:operation name="place"><soap:operation', to: '<wsdl:operation name="cancel"><soap:operation', message: /operation cancel is not in port type OrdersPort/ },
    { problem: 'a type declared twice', file: 'xsd', from: '<xs:simpleType name="Codes">', to: '<xs:simpleType name="Code">', message: /types\.xsd:\d+ <simpleType name="Code">: Code is declared twice \(first at .*types\.xsd:3/ },
    { problem: 'an invalid maxOccurs', file: 'xsd', from: 'maxOccurs="3"', to: 'maxOccurs="many"', message: /<element name="note">: invalid maxOccurs="many"/ },
    { problem: 'a construct the model does not represent', file: 'xsd', from: '<xs:element name="quantity" type="xs:int" minOccurs="0"/>', to: '<xs:any/>', message: /<any>: <xs:any> in a model group is not supported by the contract reader/ },
    { problem: 'a global attribute', file: 'xsd', from: '<xs:element name="refused" type="xs:string"/>', to: '<xs:element name="refused" type="xs:string"/><xs:attribute name="a" type="xs:string"/>', message: /<xs:attribute> at the top of a schema is not supported/ },
  ] as const)('$problem', async ({ file, from, to, message }) => {
    const read = readSoapContract(await edited(file, from, to));
    await expect(read).rejects.toThrow(message);
    if (!/ENOENT/.test(String(message))) await expect(read).rejects.toBeInstanceOf(ContractError);
  });
});
