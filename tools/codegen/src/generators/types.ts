import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';

/**
 * Vendor extension listing the known values of a string the service may extend without a new version (the
 * reference's card type). The schema itself stays an open `string`, so validators accept values added later.
 */
export const OPEN_ENUM_EXTENSION = 'x-paykit-open-enum';

/**
 * `"A" | "B" | (string & {})`: editors still suggest the known values, and a value added later by the service still
 * type-checks, so a client compiled today keeps working when the enum grows.
 */
function openEnumType(values: readonly unknown[]): ts.TypeNode {
  const known = values
    .filter((v): v is string => typeof v === 'string')
    .map((v) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(v)));
  const anyOtherString = ts.factory.createParenthesizedType(
    ts.factory.createIntersectionTypeNode([
      ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
      ts.factory.createTypeLiteralNode([]),
    ]),
  );
  return ts.factory.createUnionTypeNode([...known, anyOtherString]);
}

/** TypeScript types of every path, operation and component, by openapi-typescript, into `path`. */
export const typesGeneratorAt = (path: string): Generator => async ({ document, specPath }) => {
  // openapi-typescript takes an object (no file access), so the types come from the same bundle as every other output.
  const ast = await openapiTS(document as never, {
    alphabetize: false,
    exportType: false,
    transform(schema) {
      const known = (schema as Record<string, unknown>)[OPEN_ENUM_EXTENSION];
      return Array.isArray(known) ? openEnumType(known) : undefined;
    },
  });
  return [{ path, content: generatedHeader(specPath) + '\n' + astToString(ast) }];
};

/** The types of a client package, in `src/generated/openapi.ts`. */
export const typesGenerator: Generator = typesGeneratorAt('src/generated/openapi.ts');
