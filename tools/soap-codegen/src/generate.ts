import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import {
  ContractError,
  fileExchangeMockPackage,
  fileExchangeSoapContract,
  readSoapContract,
  readSoapSensitiveMarks,
  repoRoot,
  sensitiveModule,
  type SoapContractModel,
} from '@paykit/contracts';
import { emitContract } from './emit-contract.js';
import { emitMockContract, emitMockSettings } from './emit-mock.js';
import { emitTypes } from './emit-types.js';
import { tsHeader, withXmlHeader } from './header.js';
import type { GeneratedFile, Output } from './output.js';
import { codegenView, type CodegenView } from './view.js';

/** The contract this generator serves, from the registry. */
export const contract = fileExchangeSoapContract;

/** A path relative to the repository root when inside it: stable in headers and messages whatever the cwd. */
export function displayPath(path: string): string {
  const fromRoot = relative(repoRoot, path);
  return fromRoot.startsWith('..') || isAbsolute(fromRoot) ? path : fromRoot;
}

/** The contract files as the client package ships them, for merchants' own tools; imports are relative, so the layout is kept. */
async function contractCopies(wsdlDir: string, sources: readonly string[]): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  for (const source of sources) {
    if (source.startsWith('..') || isAbsolute(source)) {
      throw new ContractError(`${source}: every imported schema must sit in the WSDL's folder or below it`);
    }
    const xml = await readFile(join(wsdlDir, source), 'utf8');
    files.push({ path: join('wsdl', source), content: withXmlHeader(xml, [displayPath(join(wsdlDir, source))]) });
  }
  return files;
}

interface Target {
  packageDir: string;
  generatedDirs: string[];
  files(input: TargetInput): Promise<GeneratedFile[]>;
}

interface TargetInput {
  model: SoapContractModel;
  view: CodegenView;
  wsdlDir: string;
  header: string;
}

/** Every package this generator writes into, by the name its `generate` script passes; each writes only there. */
export const targets = {
  // The typed client: types, descriptors and the contract copy it ships.
  'file-exchange-soap': {
    packageDir: contract.clientPackage.dir,
    generatedDirs: ['src/generated', 'wsdl'],
    files: async ({ model, view, wsdlDir, header }: TargetInput): Promise<GeneratedFile[]> => [
      { path: 'src/generated/types.ts', content: `${header}\n${emitTypes(view)}` },
      { path: 'src/generated/contract.ts', content: `${header}\n${emitContract(view, './types.js')}` },
      // What the contract marks secret (<paykit:sensitive> in the XSD), as every package's tables are written.
      {
        path: 'src/generated/sensitive.ts',
        content: sensitiveModule(header, [{ contract: contract.name, spec: displayPath(model.wsdlFile), marks: readSoapSensitiveMarks(model) }]),
      },
      ...(await contractCopies(wsdlDir, view.sources)),
    ],
  },
  // The stateful SOAP mock: what it serves and where (the launcher reads where through @paykit/file-exchange-mock).
  'file-exchange-mock': {
    packageDir: fileExchangeMockPackage.dir,
    generatedDirs: [`src/generated/${contract.name}`],
    files: async ({ model, view, header }: TargetInput): Promise<GeneratedFile[]> => [
      emitMockContract(contract, view, header),
      emitMockSettings(contract, model, header),
    ],
  },
} satisfies Record<string, Target>;

export type TargetName = keyof typeof targets;

export const isTargetName = (name: string): name is TargetName => Object.hasOwn(targets, name);

/** What the target writes, from the WSDL at `wsdlPath` and the XSD files it imports. */
export async function generate(wsdlPath: string, target: TargetName): Promise<Output> {
  const model = await readSoapContract(wsdlPath);
  const view = codegenView(model);
  const wsdlDir = dirname(resolve(wsdlPath));
  const header = tsHeader(view.sources.map((source) => displayPath(join(wsdlDir, source))));
  const { packageDir, generatedDirs, files }: Target = targets[target];
  return { packageDir, generatedDirs, files: await files({ model, view, wsdlDir, header }) };
}
