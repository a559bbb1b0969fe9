import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ContractError, fileExchangeSoapContract, mockServerPackage, readSoapContract, repoRoot } from '@paykit/contracts';
import { emitContract } from './emit-contract.js';
import { emitMockFiles } from './emit-mock.js';
import { emitTypes } from './emit-types.js';
import { tsHeader, withXmlHeader } from './header.js';
import type { GeneratedFile, Output } from './output.js';
import { codegenView } from './view.js';

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

/**
 * Every generated file, from the WSDL at `wsdlPath` and the XSD files it imports: the client package's types,
 * descriptors and contract copy, and what the mock server needs of the contract.
 */
export async function generate(wsdlPath: string): Promise<Output[]> {
  const model = await readSoapContract(wsdlPath);
  const view = codegenView(model);
  const wsdlDir = dirname(resolve(wsdlPath));
  const header = tsHeader(view.sources.map((source) => displayPath(join(wsdlDir, source))));
  return [
    {
      packageDir: contract.clientPackage.dir,
      generatedDirs: ['src/generated', 'wsdl'],
      files: [
        { path: 'src/generated/types.ts', content: `${header}\n${emitTypes(view)}` },
        { path: 'src/generated/contract.ts', content: `${header}\n${emitContract(view, './types.js')}` },
        ...(await contractCopies(wsdlDir, view.sources)),
      ],
    },
    {
      packageDir: mockServerPackage.dir,
      generatedDirs: [`src/generated/${contract.name}`],
      files: emitMockFiles(contract, model, view, header),
    },
  ];
}
