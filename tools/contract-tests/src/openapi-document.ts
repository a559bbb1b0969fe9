import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openApiContractNamed, openApiModel, type OpenApiDocument, type OpenApiOperation } from '@paykit/contracts';
import { parse as parseYaml } from 'yaml';

/** An OpenAPI contract of the registry (`payments`, `file-exchange`). */
export type ContractName = string;

const require = createRequire(import.meta.url);

/**
 * Path of the bundled spec the contract's client package publishes (the registry names the package): the same
 * document its generated code comes from (the codegen's drift check keeps them in step with `specs/`). Reading the
 * published copy means the matrix tests what ships. Read from disk: the file-exchange export map names another file.
 */
export function contractPath(contract: ContractName): string {
  const { clientPackage } = openApiContractNamed(contract);
  return join(dirname(require.resolve(`${clientPackage.name}/package.json`)), 'spec', 'openapi.yaml');
}

export function loadContract(contract: ContractName): OpenApiDocument {
  return parseYaml(readFileSync(contractPath(contract), 'utf8')) as OpenApiDocument;
}

/** An operation as the matrix sends it: the contract's reading of it, with the method in upper case as on the wire. */
export interface OperationInfo extends Omit<OpenApiOperation, 'method'> {
  method: string;
}

/** Every operation of the document with its parameters (path-level ones merged), body, responses and security. */
export function listOperations(document: OpenApiDocument): OperationInfo[] {
  return openApiModel(document).operations.map((operation) => ({ ...operation, method: operation.method.toUpperCase() }));
}

export const isSuccessStatus = (status: string) => /^2\d\d$/.test(status);
export const isJsonMediaType = (mediaType: string) => /^application\/([\w.-]+\+)?json$/i.test(mediaType);
