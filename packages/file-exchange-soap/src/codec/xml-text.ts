/** Characters XML 1.0 cannot carry at all, even escaped: C0 controls other than tab, LF, CR, lone surrogates, U+FFFE/F. */
// eslint-disable-next-line no-control-regex
const notXmlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function findNonXmlCharacter(text: string): number {
  const match = notXmlCharacter.exec(text);
  return match ? match.index : -1;
}

/** Escapes text content; CR is written as a character reference so that XML end-of-line handling keeps it. */
export function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
