import openapiTS, { astToString } from 'openapi-typescript';
import type { Generator } from '../contracts.ts';
import { generatedHeader } from '../header.ts';

/** TypeScript types of every path, operation and component, by openapi-typescript. */
export const typesGenerator: Generator = async ({ document, contract }) => {
  // openapi-typescript takes an object (no file access), so the types come from the same bundle as every other output.
  const ast = await openapiTS(document as never, { alphabetize: false, exportType: false });
  return [{ path: 'src/generated/openapi.ts', content: generatedHeader(contract.spec) + '\n' + astToString(ast) }];
};
