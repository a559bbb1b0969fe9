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

/** `retry` and `waitMs` -> `retryWaitMs`. */
const valueName = (rule: string, field: string): string => rule + field[0]!.toUpperCase() + field.slice(1);

export interface RulesModuleOptions {
  /** Code appended to the module. */
  extra?: string;
  /**
   * Each value of a rule as a constant of its own as well (`retryWaitMs`), which the rule's object is then made of.
   * A bundler (esbuild) inlines such a number or boolean where a client reads it, when it is declared before any list
   * or object of the module, and drops the values and rules nothing reads; an object is kept whole, with the fields
   * no code reads.
   */
  eachValue?: boolean;
}

/**
 * A module exporting each rule of the contract as a constant under the description the spec gives it, so that an
 * editor shows the reference's words where the code uses a value, and all of them together as `rules`. A client
 * that reads the rules through a namespace import (`import * as rules`) bundles only the rules it uses.
 */
export function rulesModule(specPath: string, rules: Record<string, { description: string } & Record<string, unknown>>, options: RulesModuleOptions = {}): string {
  const { extra = '', eachValue = false } = options;
  let scalars = '';
  let lists = '';
  let body = '';
  for (const [name, { description, ...fields }] of Object.entries(rules)) {
    body += docComment(description, '');
    if (!eachValue) {
      body += `export const ${name} = { ${Object.entries(fields).map(([field, value]) => `${field}: ${literal(value)}`).join(', ')} } as const;\n`;
      continue;
    }
    for (const [field, value] of Object.entries(fields)) {
      const constant = valueName(name, field);
      if (constant in rules) throw new Error(`${specPath}: the value ${name}.${field} would be exported as ${constant}, the name of a rule`);
      const declaration = `/** {@link ${name}}.${field} */\nexport const ${constant} = ${literal(value)}${Array.isArray(value) ? ' as const' : ''};\n`;
      if (Array.isArray(value)) lists += declaration;
      else scalars += declaration;
    }
    body += `export const ${name} = { ${Object.keys(fields).map((field) => `${field}: ${valueName(name, field)}`).join(', ')} } as const;\n`;
  }
  if (eachValue) {
    body =
      '// Each value of the rules below as a constant of its own: numbers and booleans first, which a bundler inlines\n' +
      '// where a client reads them only when they come before the first list or object of the module, then lists.\n' +
      scalars +
      lists +
      '\n' +
      body;
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
