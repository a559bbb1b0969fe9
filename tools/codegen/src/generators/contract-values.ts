import { isNode } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';

/**
 * Values a server takes from its contract as data: the members of a schema's `enum`, and the value of a named
 * example (the payments sandbox: the card schemes a business accepts by default, and the payment methods it lists),
 * written as constants so that nothing walks the spec at run time. Each is named by the target; a name the contract
 * does not have, or an enum or example of another shape, stops generation.
 */
export interface ContractValues {
  /** Constant name -> the schema component whose `enum` it holds. */
  enums?: Record<string, string>;
  /** Constant name -> the example component whose `value` it holds. */
  examples?: Record<string, string>;
}

export const contractValuesGenerator =
  (path: string, values: ContractValues): Generator =>
  ({ document, specPath }) => {
    const components = isNode(document.components) ? document.components : {};
    const schemas = isNode(components.schemas) ? components.schemas : {};
    const examples = isNode(components.examples) ? components.examples : {};
    const lines = [generatedHeader(specPath)];
    for (const [name, schemaName] of Object.entries(values.enums ?? {})) {
      const schema = schemas[schemaName];
      const members = isNode(schema) ? schema.enum : undefined;
      if (!Array.isArray(members) || members.length === 0) throw new Error(`${specPath}: components.schemas.${schemaName} has no enum for ${name}`);
      lines.push(`/** The members of the contract's \`${schemaName}\` enum, in its order. */`, `export const ${name} = ${JSON.stringify(members)} as const;`, '');
    }
    for (const [name, exampleName] of Object.entries(values.examples ?? {})) {
      const example = examples[exampleName];
      if (!isNode(example) || example.value === undefined) throw new Error(`${specPath}: components.examples.${exampleName} has no value for ${name}`);
      lines.push(`/** The value of the contract's \`${exampleName}\` example. */`, `export const ${name}: unknown = ${JSON.stringify(example.value, null, 2)};`, '');
    }
    return [{ path, content: lines.join('\n') }];
  };
