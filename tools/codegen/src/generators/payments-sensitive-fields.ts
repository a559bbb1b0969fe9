import { openApiModel, readSensitiveMarks } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';

/**
 * The part of the contract's sensitive marks that the client's errors read: the marked JSON property names and the
 * properties that echo another field. `sensitive.ts` holds the whole table, whose `bodies` name secret-key
 * operations: imported by the errors, which the publishable entry shares, it would carry those names into the
 * browser bundle (and its bytes with them).
 */
export const paymentsSensitiveFieldsGenerator: Generator = ({ document, specPath }) => {
  const { properties, echoes } = readSensitiveMarks(openApiModel(document));
  const content = [
    generatedHeader(specPath),
    "import type { SensitiveKind } from './sensitive.js';",
    '',
    '/** JSON property name -> kind, as `paymentsSensitive.properties` in sensitive.ts. */',
    `export const sensitiveProperties: Readonly<Record<string, SensitiveKind>> = ${JSON.stringify(properties, null, 2)};`,
    '',
    '/** A property repeating another field\'s value -> the sibling naming that field, as `paymentsSensitive.echoes`. */',
    `export const sensitiveEchoes: Readonly<Record<string, string>> = ${JSON.stringify(echoes, null, 2)};`,
    '',
  ].join('\n');
  return [{ path: 'src/generated/sensitive-fields.ts', content }];
};
