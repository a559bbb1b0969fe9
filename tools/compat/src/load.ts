import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { bundleOpenApi, readSoapContract, type Contract, type SoapContractModel } from '@paykit/contracts';
import type { OpenApiDocument } from './openapi/index.js';

/** One version of a contract, in the form the comparers take. */
export type LoadedContract = { kind: 'openapi'; document: OpenApiDocument } | { kind: 'soap'; model: SoapContractModel };

export class ContractReadError extends Error {
  override name = 'ContractReadError';
}

const readIfPresent = (path: string): Promise<string | undefined> =>
  readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

/** The contract as it is now in the repository at `root`, or undefined when it has not been written yet. */
export async function loadCurrent(contract: Contract, root: string): Promise<LoadedContract | undefined> {
  const path = join(root, contract.kind === 'openapi' ? contract.root : contract.wsdl);
  if ((await readIfPresent(path)) === undefined) return undefined;
  if (contract.kind === 'openapi') return { kind: 'openapi', document: (await bundleOpenApi(path, { cwd: root })) as OpenApiDocument };
  return { kind: 'soap', model: await readSoapContract(path) };
}

/**
 * The released snapshot of a contract: the bundled document (`<name>.json`) of an OpenAPI contract, or for a SOAP
 * contract a folder (`<name>/`) holding the WSDL and the schemas it imports as they were, read again by the same reader.
 */
const snapshotPath = (contract: Contract, baseDir: string): string =>
  contract.kind === 'openapi' ? join(baseDir, `${contract.name}.json`) : join(baseDir, contract.name, basename(contract.wsdl));

const isOpenApi = (value: unknown): value is OpenApiDocument =>
  typeof value === 'object' && value !== null && typeof (value as OpenApiDocument).openapi === 'string';

/** The last released version from its snapshot, or undefined when none was released yet. */
export async function loadReleased(contract: Contract, baseDir: string): Promise<LoadedContract | undefined> {
  const path = snapshotPath(contract, baseDir);
  const text = await readIfPresent(path);
  if (text === undefined) return undefined;
  if (contract.kind === 'soap') return { kind: 'soap', model: await readSoapContract(path) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ContractReadError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (!isOpenApi(parsed)) throw new ContractReadError(`${path} is not a bundled OpenAPI document`);
  return { kind: 'openapi', document: parsed };
}

/** The files of a snapshot (paths relative to the released folder) and their contents. */
export async function snapshotFiles(contract: Contract, loaded: LoadedContract): Promise<{ path: string; content: string }[]> {
  if (loaded.kind === 'openapi') return [{ path: `${contract.name}.json`, content: `${JSON.stringify(loaded.document, null, 2)}\n` }];
  const wsdlDir = dirname(loaded.model.wsdlFile);
  return Promise.all(
    loaded.model.sources.map(async (source) => ({ path: join(contract.name, source), content: await readFile(join(wsdlDir, source), 'utf8') })),
  );
}
