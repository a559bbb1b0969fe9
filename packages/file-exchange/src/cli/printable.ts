/** Characters a name is printed with as they are: visible ASCII, except the backslash that starts an escape. */
const plain = /^[!-[\]-~]$/;

/**
 * Characters that act on a terminal or on how a log line reads instead of being shown: C0 controls but the line feed,
 * DEL, C1 controls, and the Unicode format characters that reorder or split text (bidi marks, embeddings, overrides
 * and isolates, U+061C, the line and paragraph separators). U+202E in a name would show `exe.txt` for `txt.exe`.
 */
const unsafe = /^[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]$/u;

/** The one escape the CLI prints: `\xHH` within ASCII, `\u{H}` beyond. */
function escapeCharacters(text: string, mustEscape: (character: string) => boolean): string {
  let printed = '';
  for (const character of text) {
    if (!mustEscape(character)) printed += character;
    else {
      const code = character.codePointAt(0)!;
      printed += code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
    }
  }
  return printed;
}

/**
 * A name from the service as it may be printed on a terminal or in a line-oriented file. Valid names (letters,
 * digits, `_`, `-`, `.`) are unchanged; any other character is escaped, so that a NUL, an escape sequence, a bidi
 * override or a line break sent by the service cannot reach the terminal or split one name into two lines.
 */
export function printableName(name: string): string {
  return escapeCharacters(name, (character) => !plain.test(character));
}

/**
 * Any message before it is printed (it may quote a name, a path or a server's words): the characters that act on a
 * terminal or reorder text are escaped as in printableName; the rest, line feeds included, is left as it is.
 */
export function printableText(text: string): string {
  return escapeCharacters(text, (character) => unsafe.test(character));
}
