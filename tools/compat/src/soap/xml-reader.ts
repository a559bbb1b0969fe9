/**
 * A small XML reader for the contract files (WSDL, XSD): elements, attributes, text, comments, CDATA and
 * processing instructions. It is not a validating parser and ignores DTDs; contracts need nothing more.
 */
export interface XmlElement {
  /** Qualified name as written, e.g. `xs:element`. */
  name: string;
  /** Name without its prefix, e.g. `element`. */
  local: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlSyntaxError extends Error {
  override name = 'XmlSyntaxError';
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? whole;
  });
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);
const NAME = /^[A-Za-z_][\w.:-]*/;
const ATTRIBUTE = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/;

export function parseXml(source: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const line = (): number => source.slice(0, i).split('\n').length;
  const skipPast = (marker: string): void => {
    const end = source.indexOf(marker, i);
    if (end < 0) throw new XmlSyntaxError(`unterminated construct at line ${line()}: missing ${marker}`);
    i = end + marker.length;
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const textEnd = lt < 0 ? source.length : lt;
    if (stack.length > 0) stack[stack.length - 1]!.text += decode(source.slice(i, textEnd));
    else if (source.slice(i, textEnd).trim() !== '') throw new XmlSyntaxError(`text outside the root element at line ${line()}`);
    if (lt < 0) break;
    i = lt;
    if (source.startsWith('<!--', i)) skipPast('-->');
    else if (source.startsWith('<?', i)) skipPast('?>');
    else if (source.startsWith('<![CDATA[', i)) {
      const start = i + 9;
      skipPast(']]>');
      if (stack.length > 0) stack[stack.length - 1]!.text += source.slice(start, i - 3);
    } else if (source.startsWith('<!', i)) skipPast('>');
    else if (source.startsWith('</', i)) {
      const match = NAME.exec(source.slice(i + 2));
      const open = stack.pop();
      if (!match || !open || open.name !== match[0]) {
        throw new XmlSyntaxError(`mismatched closing tag </${match?.[0] ?? ''}> at line ${line()}`);
      }
      skipPast('>');
    } else {
      const match = NAME.exec(source.slice(i + 1));
      if (!match) throw new XmlSyntaxError(`invalid tag at line ${line()}`);
      const element: XmlElement = { name: match[0], local: localName(match[0]), attributes: {}, children: [], text: '' };
      i += 1 + match[0].length;
      for (let attribute = ATTRIBUTE.exec(source.slice(i)); attribute; attribute = ATTRIBUTE.exec(source.slice(i))) {
        element.attributes[attribute[1]!] = decode(attribute[3] ?? attribute[4] ?? '');
        i += attribute[0].length;
      }
      const close = /^\s*(\/?)>/.exec(source.slice(i));
      if (!close) throw new XmlSyntaxError(`malformed tag <${element.name}> at line ${line()}`);
      i += close[0].length;
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else if (root) throw new XmlSyntaxError(`second root element <${element.name}> at line ${line()}`);
      else root = element;
      if (close[1] !== '/') stack.push(element);
    }
  }
  if (stack.length > 0) throw new XmlSyntaxError(`unclosed element <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new XmlSyntaxError('no root element');
  return root;
}

/** Direct children with the given local name. */
export const childrenNamed = (element: XmlElement, local: string): XmlElement[] =>
  element.children.filter((c) => c.local === local);
