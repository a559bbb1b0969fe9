import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitContract } from './emit-contract.js';
import { emitTypes } from './emit-types.js';
import { tsHeader, withXmlHeader } from './header.js';
import { readContract } from './read-contract.js';
import { ContractError } from './xml-tree.js';

/** Root of the monorepo: default paths are resolved from here, whatever the caller's cwd. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const defaultWsdl = 'specs/file-exchange-soap/FileExchange.wsdl';
export const defaultPackageDir = 'packages/file-exchange-soap';

/** Folders of the package owned entirely by the generator: any file in them that it does not write is drift. */
export const generatedDirs = ['src/generated', 'wsdl'];

export interface GeneratedFile {
  /** Path relative to the package folder. */
  path: string;
  content: string;
}

/** A path relative to the repository root when inside it: stable in headers and messages whatever the cwd. */
export function displayPath(path: string): string {
  const fromRoot = relative(repoRoot, path);
  return fromRoot.startsWith('..') || isAbsolute(fromRoot) ? path : fromRoot;
}

/** Every generated file of the package, from the WSDL at `wsdlPath` and the XSD files it imports. */
export async function generate(wsdlPath: string): Promise<GeneratedFile[]> {
  const model = await readContract(wsdlPath);
  const wsdlDir = dirname(resolve(wsdlPath));
  const sources = model.sources.map((source) => displayPath(join(wsdlDir, source)));
  const header = tsHeader(sources);
  const files: GeneratedFile[] = [
    { path: 'src/generated/types.ts', content: `${header}\n${emitTypes(model)}` },
    { path: 'src/generated/contract.ts', content: `${header}\n${emitContract(model, './types.js')}` },
  ];
  // The contract ships inside the package for merchants' own tools; imports are relative, so the layout is kept.
  for (const source of model.sources) {
    if (source.startsWith('..') || isAbsolute(source)) {
      throw new ContractError(`${source}: every imported schema must sit in the WSDL's folder or below it`);
    }
    const xml = await readFile(join(wsdlDir, source), 'utf8');
    files.push({ path: join('wsdl', source), content: withXmlHeader(xml, [displayPath(join(wsdlDir, source))]) });
  }
  return files;
}
