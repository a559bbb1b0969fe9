import { describe, expect, it } from 'vitest';
import { parseXml, XmlSyntaxError } from '../src/soap/xml-reader.js';

describe('xml reader', () => {
  it('reads elements, attributes in both quote styles, entities, CDATA, and skips comments and declarations', () => {
    const root = parseXml(`<?xml version="1.0"?>
      <!-- a comment with <tags> -->
      <a:root xmlns:a="urn:x" one="1" two='2 &amp; 3'>
        <a:child/>
        <a:text>x &lt; y<![CDATA[ <raw> ]]></a:text>
      </a:root>`);
    expect(root).toMatchObject({ name: 'a:root', local: 'root', attributes: { 'xmlns:a': 'urn:x', one: '1', two: '2 & 3' } });
    expect(root.children.map((c) => c.local)).toEqual(['child', 'text']);
    expect(root.children[1]!.text).toBe('x < y <raw> ');
  });

  it.each([
    { case: 'a mismatched closing tag', xml: '<a><b></a></b>', message: /mismatched closing tag <\/a>/ },
    { case: 'an unclosed element', xml: '<a><b/>', message: /unclosed element <a>/ },
    { case: 'an unterminated comment', xml: '<a><!-- oops</a>', message: /missing -->/ },
    { case: 'two root elements', xml: '<a/><b/>', message: /second root element <b>/ },
    { case: 'text outside the root', xml: 'hello <a/>', message: /text outside the root/ },
    { case: 'no element at all', xml: '<?xml version="1.0"?>', message: /no root element/ },
    { case: 'a malformed tag', xml: '<a b=c/>', message: /malformed tag <a>/ },
  ])('rejects $case with a clear error', ({ xml, message }) => {
    expect(() => parseXml(xml)).toThrow(XmlSyntaxError);
    expect(() => parseXml(xml)).toThrow(message);
  });
});
