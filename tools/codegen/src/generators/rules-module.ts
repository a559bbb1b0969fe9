import { generatedHeader } from '../header.js';

/** A JSDoc comment of `text`, indented by `indent`. */
function docComment(text: string, indent: string): string {
  const lines = text.trim().split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** Rule values are numbers, booleans and lists of numbers or strings: JSON, with a space after the list's commas. */
const literal = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map((item) => JSON.stringify(item)).join(', ')}]` : JSON.stringify(value);

/**
 * A module exporting each rule of the contract as a constant under the description the spec gives it, so that an
 * editor shows the reference's words where the code uses a value, and all of them together as `rules`. A client
 * that reads the rules through a namespace import (`import * as rules`) bundles only the rules it uses.
 */
export function rulesModule(specPath: string, rules: Record<string, { description: string } & Record<string, unknown>>, extra = ''): string {
  let body = '';
  for (const [name, { description, ...fields }] of Object.entries(rules)) {
    body += docComment(description, '');
    body += `export const ${name} = { ${Object.entries(fields).map(([field, value]) => `${field}: ${literal(value)}`).join(', ')} } as const;\n`;
  }
  return (
    generatedHeader(specPath) +
    '\n' +
    body +
    `\n/** The reference's rules that OpenAPI has no keyword for, from \`x-paykit-rules\` in ${specPath}. */\n` +
    `export const rules = { ${Object.keys(rules).join(', ')} } as const;\n` +
    extra
  );
}
