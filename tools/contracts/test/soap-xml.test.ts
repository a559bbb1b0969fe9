// The XML layer under the WSDL/XSD reader: namespaces resolved, text kept, and errors that name file, line and column.
import { describe, expect, it } from 'vitest';
import { ContractError, documentationOf, parseXml, resolveQName } from '../src/soap/xml.js';

describe('parseXml', () => {
  it('reads elements with their namespace, attributes in both quote styles, entities and CDATA; drops comments and declarations', () => {
    const root = parseXml(
      `<?xml version="1.0"?>
      <!-- a comment with <tags> -->
      <a:root xmlns:a="urn:x" one="1" two='2 &amp; 3'>
        <a:child/>
        <a:text>x &lt; y<![CDATA[ <raw> ]]></a:text>
      </a:root>`,
      'test.xml',
    );
    expect(root).toMatchObject({ uri: 'urn:x', local: 'root', attributes: { one: '1', two: '2 & 3' }, file: 'test.xml', line: 3 });
    expect(root.children.map((c) => c.local)).toEqual(['child', 'text']);
    expect(root.children[1]!.text).toBe('x < y <raw> ');
  });

  it.each([
    { case: 'a mismatched closing tag', xml: '<a><b></a></b>', message: /test\.xml:1:\d+: not well-formed XML: unexpected close tag/ },
    { case: 'an unclosed element', xml: '<a><b/>', message: /test\.xml:1:\d+: not well-formed XML: unclosed root tag/ },
    { case: 'an unterminated comment', xml: '<a><!-- oops</a>', message: /not well-formed XML: unclosed root tag/ },
    { case: 'two root elements', xml: '<a/>\n<b/>', message: /test\.xml:2:\d+: not well-formed XML: second root element <b>/ },
    { case: 'text outside the root', xml: 'hello <a/>', message: /not well-formed XML: non-whitespace before first tag/ },
    { case: 'no element at all', xml: '<?xml version="1.0"?>', message: /test\.xml: not well-formed XML: no root element/ },
    { case: 'a malformed tag', xml: '<a b=c/>', message: /not well-formed XML: unquoted attribute value/ },
    { case: 'an unbound element prefix', xml: '<q:a/>', message: /not well-formed XML: unbound namespace prefix/ },
    { case: 'an undeclared entity', xml: '<a>&foo;</a>', message: /not well-formed XML: invalid character entity/ },
  ])('rejects $case with a ContractError naming the place', ({ xml, message }) => {
    expect(() => parseXml(xml, 'test.xml')).toThrow(ContractError);
    expect(() => parseXml(xml, 'test.xml')).toThrow(message);
  });
});

describe('resolveQName and documentationOf', () => {
  const root = parseXml(
    `<r xmlns:t="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
      <e><xs:annotation><xs:documentation>  Two
         lines. </xs:documentation></xs:annotation><wsdl:documentation>And more.</wsdl:documentation></e>
      <d xmlns="urn:default"/>
    </r>`,
    'q.xml',
  );

  it.each([
    { value: 't:Type', at: 0, expected: { namespace: 'urn:t', name: 'Type' } },
    { value: 'Plain', at: 0, expected: { namespace: '', name: 'Plain' } },
    { value: 'Plain', at: 1, expected: { namespace: 'urn:default', name: 'Plain' } },
  ])('$value at child $at is $expected.namespace $expected.name', ({ value, at, expected }) => {
    expect(resolveQName(root.children[at]!, value)).toEqual(expected);
  });

  it('refuses an unknown prefix, naming file and line', () => {
    expect(() => resolveQName(root.children[0]!, 'q:X')).toThrow(/q\.xml:2 <e>: unknown namespace prefix "q" in "q:X"/);
  });

  it('folds the documentation of xs:annotation and wsdl:documentation onto one line', () => {
    expect(documentationOf(root.children[0]!)).toBe('Two lines. And more.');
    expect(documentationOf(root.children[1]!)).toBe('');
  });
});
