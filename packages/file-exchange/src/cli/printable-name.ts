/** Characters printed as they are: visible ASCII, except the backslash that starts an escape. */
const plain = /^[!-[\]-~]$/;

/**
 * A name from the service as it may be printed on a terminal or in a line-oriented file. Valid names (letters,
 * digits, `_`, `-`, `.`) are unchanged; any other character is escaped (`\xHH` within ASCII, `\u{H}` beyond),
 * so that a NUL, an escape sequence or a line break sent by the service cannot reach the terminal
 * or split one name into two lines.
 */
export function printableName(name: string): string {
  let printed = '';
  for (const character of name) {
    if (plain.test(character)) printed += character;
    else {
      const code = character.codePointAt(0)!;
      printed += code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
    }
  }
  return printed;
}
