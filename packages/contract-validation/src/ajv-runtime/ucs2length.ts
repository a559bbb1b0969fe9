/**
 * The length of a string in Unicode code points, as JSON Schema's `maxLength` and `minLength` count it: what ajv's
 * compiled code calls as `require("ajv/dist/runtime/ucs2length").default` (the generator points that call here).
 */
export default function ucs2length(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    length++;
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
  }
  return length;
}
