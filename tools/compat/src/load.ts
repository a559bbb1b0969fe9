import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleSpec } from './bundle.js';
import type { ContractDefinition } from './contracts.js';
import type { OpenApiDocument } from './openapi/index.js';
import { readWsdl, type WsdlModel } from './soap/wsdl-model.js';
import type { SoapContract } from './soap/compare-soap.js';
import { readXsd } from './soap/xsd-model.js';

/** One version of a contract, in the form the comparers take and the snapshot stores. */
export type LoadedContract =
  | { kind: 'openapi'; document: OpenApiDocument }
  | { kind: 'soap'; contract: SoapContract; wsdl: WsdlModel; xsdSource: string };

export class ContractReadError extends Error {
  override name = 'ContractReadError';
}

/** Runs a reader on a file's text, naming the file in any error it raises. */
function readAs<T>(path: string, reader: (text: string) => T, text: string): T {
  try {
    return reader(text);
  } catch (error) {
    throw new ContractReadError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

const readIfPresent = (path: string): Promise<string | undefined> =>
  readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

/** The contract as it is now in the repository at `root`, or undefined when it has not been written yet. */
export async function loadCurrent(definition: ContractDefinition, root: string): Promise<LoadedContract | undefined> {
  if (definition.kind === 'openapi') {
    if ((await readIfPresent(join(root, definition.spec))) === undefined) return undefined;
    return { kind: 'openapi', document: await bundleSpec(join(root, definition.spec), root) };
  }
  const wsdlPath = join(root, definition.wsdl);
  const xsdPath = join(root, definition.xsd);
  const wsdlSource = await readIfPresent(wsdlPath);
  const xsdSource = await readIfPresent(xsdPath);
  if (wsdlSource === undefined || xsdSource === undefined) return undefined;
  const wsdl = readAs(wsdlPath, readWsdl, wsdlSource);
  return { kind: 'soap', wsdl, xsdSource, contract: { wsdl, xsd: readAs(xsdPath, readXsd, xsdSource) } };
}

export const snapshotPaths = (definition: ContractDefinition, baseDir: string): string[] =>
  definition.kind === 'openapi'
    ? [join(baseDir, `${definition.name}.json`)]
    : [join(baseDir, `${definition.name}.json`), join(baseDir, `${definition.name}.xsd`)];

const isOpenApi = (value: unknown): value is OpenApiDocument =>
  typeof value === 'object' && value !== null && typeof (value as OpenApiDocument).openapi === 'string';

const isWsdlModel = (value: unknown): value is WsdlModel =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as WsdlModel).operations) &&
  Array.isArray((value as WsdlModel).addressPaths) &&
  typeof (value as WsdlModel).targetNamespace === 'string';

/** The last released version from its snapshot, or undefined when none was released yet. */
export async function loadReleased(definition: ContractDefinition, baseDir: string): Promise<LoadedContract | undefined> {
  const [jsonPath, xsdPath] = snapshotPaths(definition, baseDir);
  const json = await readIfPresent(jsonPath!);
  if (json === undefined) return undefined;
  const parsed = readAs(jsonPath!, (text) => JSON.parse(text) as unknown, json);
  if (definition.kind === 'openapi') {
    if (!isOpenApi(parsed)) throw new ContractReadError(`${jsonPath} is not a bundled OpenAPI document`);
    return { kind: 'openapi', document: parsed };
  }
  if (!isWsdlModel(parsed)) throw new ContractReadError(`${jsonPath} is not a SOAP contract snapshot`);
  const xsdSource = await readIfPresent(xsdPath!);
  if (xsdSource === undefined) throw new ContractReadError(`snapshot ${jsonPath} has no XSD beside it (${xsdPath})`);
  return { kind: 'soap', wsdl: parsed, xsdSource, contract: { wsdl: parsed, xsd: readAs(xsdPath!, readXsd, xsdSource) } };
}

/** File contents of a snapshot, in the order of `snapshotPaths`. */
export function snapshotContents(loaded: LoadedContract): string[] {
  if (loaded.kind === 'openapi') return [`${JSON.stringify(loaded.document, null, 2)}\n`];
  return [`${JSON.stringify(loaded.wsdl, null, 2)}\n`, loaded.xsdSource];
}
