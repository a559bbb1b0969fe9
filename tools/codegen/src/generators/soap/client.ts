import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { ContractError } from '@paykit/contracts';
import type { GeneratedFile, SoapGenerator } from '../../generator.js';
import { displayPath, generatedHeader, withXmlHeader } from '../../header.js';
import { emitContract } from './emit-contract.js';
import { emitTypes } from './emit-types.js';

/** The messages' TypeScript types. */
const typesGenerator: SoapGenerator = ({ view, specPath }) => [{ path: 'src/generated/types.ts', content: `${generatedHeader(specPath)}\n${emitTypes(view)}` }];

/** The descriptors the hand-written codec reads: namespace, fields in schema order, operations. */
const descriptorsGenerator: SoapGenerator = ({ view, specPath }) => [
  { path: 'src/generated/contract.ts', content: `${generatedHeader(specPath)}\n${emitContract(view, './types.js')}` },
];

/** The contract files as the client package ships them, for merchants' own tools; imports are relative, so the layout is kept. */
const contractCopiesGenerator: SoapGenerator = async ({ model, view }) => {
  const wsdlDir = dirname(model.wsdlFile);
  const files: GeneratedFile[] = [];
  for (const source of view.sources) {
    if (source.startsWith('..') || isAbsolute(source)) {
      throw new ContractError(`${source}: every imported schema must sit in the WSDL's folder or below it`);
    }
    const xml = await readFile(join(wsdlDir, source), 'utf8');
    files.push({ path: join('wsdl', source), content: withXmlHeader(xml, displayPath(join(wsdlDir, source))) });
  }
  return files;
};

/** The messages' types and the descriptors of the codec, for a package that encodes or samples messages. */
export const soapDescriptorGenerators: SoapGenerator[] = [typesGenerator, descriptorsGenerator];

/** The typed client: types, descriptors and the contract copy it ships (its table of what is secret is the target's). */
export const soapClientGenerators: SoapGenerator[] = [...soapDescriptorGenerators, contractCopiesGenerator];
